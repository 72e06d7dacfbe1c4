import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../test/ports.ts';
import { startFixtureSite, type FixtureSite } from '../test/fixture-site.ts';
import { createApiKey } from '../core/auth/api-keys.ts';
import { findOrCreateUser } from '../core/auth/users.ts';
import { benchDatabase } from './database.ts';
import { WORKER_CONCURRENCY } from '../pipeline/worker.ts';
import { EDGE_RUNTIME_ENV, WORKER_RUNTIME_ENV } from '../deploy/runtime-env.ts';

/**
 * `bun bench/submit-to-ready.ts`: BENCH_SITES (20) fixture websites of about 6 pages each, served
 * on loopback, submitted at once through the REST API (submit_listing) to the edge and the worker
 * running as separate processes, as in production, with the extractive drafter. Each draft is
 * polled with get_draft every 100 ms; prints the time from submit to ready (p50, p90, max) and
 * fails if any draft does not end ready.
 */
const sites = Number(process.env.BENCH_SITES ?? 20);
const root = join(import.meta.dirname, '..');

function startProcess(entry: string, env: Record<string, string>, ready: RegExp | null): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, entry)], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    if (ready === null) resolve(child);
    child.stdout!.on('data', (d: Buffer) => {
      if (ready?.test(d.toString())) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`${entry} exited with ${code}`)));
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const db = await benchDatabase(0);
const user = await findOrCreateUser(db.sql, 'bench-submit@example.com');
const key = await createApiKey(db.sql, { userId: user.id, name: 'bench', scopes: ['account:read', 'listings:write'] });
const port = await freePort();
const env = {
  PORT: String(port),
  HOST: '127.0.0.1',
  SITE_URL: `http://127.0.0.1:${port}`,
  DATABASE_URL: db.url,
  LOG_LEVEL: 'warn',
  ALLOW_LOOPBACK_FETCH: 'true',
  DRAFTER: 'extractive',
  RATE_LIMIT_WRITES: '10000000',
  RATE_LIMIT_AUTHENTICATED_READS: '10000000',
};
// As deployed: each with its runtime settings (deploy/runtime-env.ts).
const edge = await startProcess('api/main.ts', { ...EDGE_RUNTIME_ENV, ...env }, /listening/);
const worker = await startProcess('pipeline/main.ts', { ...WORKER_RUNTIME_ENV, ...env }, null);
const fixtures: FixtureSite[] = Array.from({ length: sites + 1 }, (_, i) => startFixtureSite({ name: `Product ${i + 1}` }));
const api = `http://127.0.0.1:${port}/api/v1`;
const headers = { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' };

async function submit(url: string): Promise<string> {
  const res = await fetch(`${api}/drafts`, { method: 'POST', headers, body: JSON.stringify({ url }) });
  if (res.status !== 201) throw new Error(`submit_listing answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** Milliseconds from `start` until the draft is ready (or failed: reported). */
async function untilSettled(id: string, start: number, limitMs = 120_000): Promise<{ ms: number; status: string; pages: number }> {
  for (;;) {
    const res = await fetch(`${api}/drafts/${id}`, { headers });
    const d = (await res.json()) as { status: string; crawl: { pages: unknown[] } };
    if (d.status === 'ready' || d.status === 'failed') return { ms: performance.now() - start, status: d.status, pages: d.crawl.pages.length };
    if (performance.now() - start > limitMs) return { ms: performance.now() - start, status: `stuck in ${d.status}`, pages: 0 };
    await Bun.sleep(100);
  }
}

try {
  // One warm-up draft: both processes are up, connected and past their first-request costs.
  const warmStart = performance.now();
  const warm = await untilSettled(await submit(fixtures[sites].url), warmStart);
  if (warm.status !== 'ready') throw new Error(`warm-up draft ended ${warm.status}`);

  const start = performance.now();
  const ids = await Promise.all(fixtures.slice(0, sites).map((f) => submit(f.url)));
  const submitted = performance.now() - start;
  const results = await Promise.all(ids.map((id) => untilSettled(id, start)));
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  const bad = results.filter((r) => r.status !== 'ready');
  console.log(
    `\nsubmit-to-ready: ${sites} sites of ${results[0].pages} pages submitted at once (extractive drafter, worker concurrency ${WORKER_CONCURRENCY}), Bun ${Bun.version}`,
  );
  console.log(`  one site alone (the warm-up): ${(warm.ms / 1000).toFixed(2)} s`);
  console.log(`  all ${sites} submit_listing calls answered in ${submitted.toFixed(0)} ms`);
  console.log(
    `  p50 ${(percentile(times, 50) / 1000).toFixed(2)} s   p90 ${(percentile(times, 90) / 1000).toFixed(2)} s   max ${(times[times.length - 1] / 1000).toFixed(2)} s`,
  );
  if (bad.length) {
    console.log(`  ${bad.length} drafts did not end ready: ${bad.map((b) => b.status).join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  for (const f of fixtures) f.stop();
  edge.kill('SIGTERM');
  worker.kill('SIGTERM');
  // The bench's own drafts go; the bench database is kept for the next run.
  await db.sql`delete from drafts where user_id = ${user.id}`;
  await db.sql`delete from api_keys where id = ${key.id}`;
  await db.stop();
}
process.exit(process.exitCode ?? 0);
