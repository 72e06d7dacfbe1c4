import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../test/ports.ts';
import { benchDatabase } from './database.ts';
import { scenarios } from './scenarios.ts';

/**
 * `npm run bench`: every scenario against the edge on a 100k-listing database, each printed next to
 * the bare hello-world ceiling of the same runtime measured in the same run.
 * BENCH_LISTINGS (100000), BENCH_DURATION seconds (10), BENCH_CONNECTIONS (50), BENCH_ONLY=name,name.
 */
const target = Number(process.env.BENCH_LISTINGS ?? 100_000);
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const only = process.env.BENCH_ONLY?.split(',');
const root = join(import.meta.dirname, '..');

function startProcess(entry: string, env: Record<string, string>): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, entry)], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout!.on('data', (d: Buffer) => {
      if (/READY|listening/.test(d.toString())) resolve(child);
    });
    child.on('exit', (code, signal) => reject(new Error(`${entry} exited (${signal ?? code}) before it was ready: its own error is printed above`)));
  });
}

async function load(name: string, base: string, make: autocannon.Options['requests'], extra: Partial<autocannon.Options> = {}) {
  const result = await autocannon({ url: base, connections, duration, requests: make, ...extra });
  const bad = result.non2xx + result.errors + result.timeouts;
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bad, total: result.requests.total };
}

const db = await benchDatabase(target);
const helloPort = await freePort();
const edgePort = await freePort();
const hello = await startProcess('bench/hello.ts', { PORT: String(helloPort) });
const edgeEnv = (port: number, extra: Record<string, string> = {}) => ({
  PORT: String(port),
  HOST: '127.0.0.1',
  SITE_URL: `http://127.0.0.1:${port}`,
  DATABASE_URL: db.url,
  LOG_LEVEL: 'warn',
  // One load generator on one address: lift the per-address budgets so the bench measures throughput.
  RATE_LIMIT_ANONYMOUS_READS: '10000000',
  RATE_LIMIT_AUTHENTICATED_READS: '10000000',
  RATE_LIMIT_WRITES: '10000000',
  ...extra,
});
const edge = await startProcess('api/main.ts', edgeEnv(edgePort));
// Cold scenarios run against a second edge, started fresh with the response cache off.
let cold: ChildProcess | undefined;
let coldPort = 0;
try {
  const rows = [] as Awaited<ReturnType<typeof load>>[];
  rows.push(await load('hello-world ceiling', `http://127.0.0.1:${helloPort}`, [{ method: 'GET', path: '/' }]));
  for (const s of await scenarios(db.sql, db.siteId)) {
    if (only && !only.includes(s.name)) continue;
    if (s.edge === 'cold' && !cold) {
      coldPort = await freePort();
      cold = await startProcess('api/main.ts', edgeEnv(coldPort, { CACHE_TTL_SECONDS: '0' }));
    }
    rows.push(await load(s.name, `http://127.0.0.1:${s.edge === 'cold' ? coldPort : edgePort}`, s.requests));
  }
  const ceiling = rows[0].rps;
  console.log(`\n${target} listings, ${connections} connections, ${duration}s each, Bun ${Bun.version}\n`);
  console.log('scenario                                   req/s    p50 ms  p99 ms  % of ceiling  non-2xx+errors');
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(40)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(7)} ${((r.rps / ceiling) * 100).toFixed(1).padStart(12)}% ${String(r.bad).padStart(14)}`,
    );
  }
  if (rows.some((r) => r.bad > 0)) process.exitCode = 1;
  // Submit-to-ready for 20 small sites (edge + worker processes, extractive drafter), on the same database.
  if (!only || only.includes('submit_to_ready')) {
    const run = spawnSync(process.execPath, [join(root, 'bench/submit-to-ready.ts')], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_DATABASE_URL: db.url },
    });
    if (run.status !== 0) process.exitCode = 1;
  }
  // Re-crawl of 1,000 listings on fixture hosts by the worker process (bench/recrawl.ts), on the same database.
  if (!only || only.includes('recrawl')) {
    const run = spawnSync(process.execPath, [join(root, 'bench/recrawl.ts')], { stdio: 'inherit', env: { ...process.env, BENCH_DATABASE_URL: db.url } });
    if (run.status !== 0) process.exitCode = 1;
  }
} finally {
  hello.kill('SIGTERM');
  edge.kill('SIGTERM');
  cold?.kill('SIGTERM');
  await db.stop();
}
// Failed or timed-out requests make the run fail, so a broken scenario is never reported as a number.
process.exit(process.exitCode ?? 0);
