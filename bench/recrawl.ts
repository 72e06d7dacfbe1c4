import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFixtureSite, type FixtureSite } from '../test/fixture-site.ts';
import { benchDatabase } from './database.ts';
import { batchProgress, createBatch } from '../core/recrawl/batches.ts';
import { WORKER_CONCURRENCY } from '../pipeline/worker.ts';
import { WORKER_RUNTIME_ENV } from '../deploy/runtime-env.ts';

/**
 * `npm run bench:recrawl` (also the last scenario of `npm run bench`, BENCH_ONLY=recrawl):
 * BENCH_RECRAWL_LISTINGS (1000) live listings whose websites are BENCH_RECRAWL_HOSTS (8) fixture
 * servers on loopback (one port each, so that many hosts), re-crawled as one operator batch by
 * the worker running as its own process (extractive drafter). One host is crawled by one job at a
 * time (its queue), so the hosts bound the parallelism. Prints listings per minute and the
 * worker's resident memory (at start and peak, read from /proc), and fails if any listing fails.
 */
const listings = Number(process.env.BENCH_RECRAWL_LISTINGS ?? 1000);
const hosts = Number(process.env.BENCH_RECRAWL_HOSTS ?? 8);
const root = join(import.meta.dirname, '..');

const rssMb = (pid: number): number => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
};

const db = await benchDatabase(0);
const fixtures: FixtureSite[] = Array.from({ length: hosts }, (_, i) => startFixtureSite({ name: `Recrawl ${i + 1}` }));
let worker: ChildProcess | null = null;
try {
  // The bench's own listings, made again each run (the fixture ports change).
  await db.sql`delete from listings where slug like 'recrawl-bench-%'`;
  const rows = Array.from({ length: listings }, (_, i) => ({ i, url: `${fixtures[i % hosts].url}?listing=${i}` }));
  const [company] = await db.sql<{ id: number }[]>`
    insert into companies (name, domain, website_url) values ('Recrawl bench', 'recrawl-bench.example', 'https://recrawl-bench.example/')
    on conflict ((lower(domain))) do update set name = companies.name returning id`;
  const made = await db.sql<{ id: number }[]>`
    insert into listings (site_id, company_id, slug, name, url, domain, status, tagline)
    select ${db.siteId}, ${company.id}, 'recrawl-bench-' || r.i, 'Recrawl bench ' || r.i, r.url, '127.0.0.1', 'live', 'An old tagline'
    from jsonb_to_recordset(${db.sql.json(rows as never)}::jsonb) as r(i int, url text)
    returning id::int`;
  worker = spawn(process.execPath, [join(root, 'pipeline/main.ts')], {
    // As deployed, with the worker's runtime settings (deploy/runtime-env.ts).
    env: { ...WORKER_RUNTIME_ENV, ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'warn', ALLOW_LOOPBACK_FETCH: 'true', DRAFTER: 'extractive' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await Bun.sleep(3000); // the worker connects and migrates
  const startRss = rssMb(worker.pid!);
  const start = performance.now();
  const batch = await createBatch(db.sql, db.siteId, { ids: made.map((m) => m.id) }, { concurrency: WORKER_CONCURRENCY, actor: 'bench' });
  let peak = startRss;
  let p = (await batchProgress(db.sql, batch.id))!;
  let lastPrint = 0;
  while (p.queued > 0) {
    await Bun.sleep(500);
    peak = Math.max(peak, rssMb(worker.pid!));
    p = (await batchProgress(db.sql, batch.id))!;
    if (performance.now() - lastPrint > 10_000) {
      console.log(`  ${p.done + p.failed}/${p.total}`);
      lastPrint = performance.now();
    }
    if (performance.now() - start > 30 * 60_000) throw new Error('the batch did not finish in 30 minutes');
  }
  const minutes = (performance.now() - start) / 60_000;
  const [{ pages }] = await db.sql<
    { pages: number }[]
  >`select count(*)::int as pages from listing_findings where batch_id = ${batch.id}::uuid and kind = 'refreshed' and field = 'tagline'`;
  console.log(
    `\nrecrawl: ${p.total} listings on ${hosts} hosts, worker concurrency ${WORKER_CONCURRENCY}: ${(p.done / minutes).toFixed(0)} listings/min ` +
      `(${(minutes * 60).toFixed(1)} s), done ${p.done}, failed ${p.failed}, taglines refreshed ${pages}; ` +
      `worker RSS ${startRss.toFixed(0)} MB at start, ${peak.toFixed(0)} MB peak`,
  );
  if (p.failed > 0 || p.done !== listings) process.exitCode = 1;
} finally {
  worker?.kill('SIGTERM');
  for (const f of fixtures) f.stop();
  await db.stop();
}
process.exit(process.exitCode ?? 0);
