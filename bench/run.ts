import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../test/ports.ts';
import { benchDatabase } from './database.ts';
import { scenarios } from './scenarios.ts';
import { judgeTargets } from './targets.ts';
import { EDGE_RUNTIME_ENV } from '../deploy/runtime-env.ts';

/**
 * `npm run bench`: every scenario against the edge on a 100k-listing database, each printed next to
 * the bare hello-world ceiling of the same runtime measured in the same run.
 * BENCH_LISTINGS (100000), BENCH_DURATION seconds (10), BENCH_CONNECTIONS (50), BENCH_ONLY=name,name,
 * BENCH_SOAK_SECONDS (0: none) for a long mixed-traffic run reporting whether the edge's memory grows,
 * BENCH_EDGE_FLAGS for the edges' runtime (say --smol).
 */
const target = Number(process.env.BENCH_LISTINGS ?? 100_000);
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const only = process.env.BENCH_ONLY?.split(',');
const soak = Number(process.env.BENCH_SOAK_SECONDS ?? 0);
let soakLine = '';
const root = join(import.meta.dirname, '..');

/** BENCH_EDGE_FLAGS: runtime flags for the edges (say --smol), to weigh memory against speed. */
const edgeFlags = process.env.BENCH_EDGE_FLAGS?.split(/\s+/).filter(Boolean) ?? [];

/** The last error lines (pino level 50 and up) each process logged, shown when a scenario has failures. */
const errorLines = new Map<ChildProcess, string[]>();

function startProcess(entry: string, env: Record<string, string>): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const flags = entry === 'api/main.ts' ? edgeFlags : [];
    const child = spawn(process.execPath, [...flags, join(root, entry)], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    const errors: string[] = [];
    errorLines.set(child, errors);
    child.stdout!.on('data', (d: Buffer) => {
      const text = d.toString();
      if (/READY|listening/.test(text)) resolve(child);
      for (const line of text.split('\n')) {
        if (/"level":\s*(5\d|6\d)/.test(line)) errors.push(line.slice(0, 2000));
        if (errors.length > 20) errors.shift();
      }
    });
    child.on('exit', (code, signal) => reject(new Error(`${entry} exited (${signal ?? code}) before it was ready: its own error is printed above`)));
  });
}

/** Resident memory of a process in MB, from /proc (null where there is no /proc). */
function rssMb(pid: number | undefined): number | null {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/** A scenario under load, sampling the serving edge's resident memory each second (its peak is reported). */
async function load(name: string, base: string, make: autocannon.Options['requests'], server?: ChildProcess, seconds = duration) {
  let peak = rssMb(server?.pid) ?? 0;
  const samples: number[] = [];
  const timer = setInterval(() => {
    const mb = rssMb(server?.pid);
    if (mb !== null) {
      peak = Math.max(peak, mb);
      samples.push(mb);
    }
  }, 1000);
  const result = await autocannon({ url: base, connections, duration: seconds, requests: make });
  clearInterval(timer);
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) {
    const statuses = Object.entries(result.statusCodeStats ?? {})
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, s]) => `${s.count}x ${code}`);
    console.log(`${name}: ${result.non2xx} non-2xx (${statuses.join(', ') || 'none'}), ${result.errors} errors, ${result.timeouts} timeouts`);
    // What the serving edge logged as errors meanwhile (its stdout is otherwise not shown).
    const logged = server ? (errorLines.get(server)?.splice(0) ?? []) : [];
    for (const line of logged.slice(-5)) console.log(`  edge logged: ${line}`);
  } else if (server) errorLines.get(server)?.splice(0);
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bad, total: result.requests.total, peak, samples };
}

const db = await benchDatabase(target);
const helloPort = await freePort();
const edgePort = await freePort();
const hello = await startProcess('bench/hello.ts', { PORT: String(helloPort) });
const edgeEnv = (port: number, extra: Record<string, string> = {}) => ({
  // As deployed (BENCH_EDGE_ENV=none: without the edge's runtime settings).
  ...(process.env.BENCH_EDGE_ENV === 'none' ? {} : EDGE_RUNTIME_ENV),
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
let replay: ChildProcess | undefined;
let coldPort = 0;
try {
  const rows = [] as Awaited<ReturnType<typeof load>>[];
  rows.push(await load('hello-world ceiling', `http://127.0.0.1:${helloPort}`, [{ method: 'GET', path: '/' }]));
  if (!only || only.includes('wire floor')) {
    // The edge's own cached get_listing answer replayed by a bare server: what its size and headers cost.
    const [{ slug }] = await db.sql<{ slug: string }[]>`select slug from listings where site_id = ${db.siteId} and status = 'live' order by id limit 1`;
    const replayPort = await freePort();
    replay = await startProcess('bench/replay.ts', { PORT: String(replayPort), REPLAY_FROM: `http://127.0.0.1:${edgePort}/api/v1/listings/${slug}` });
    rows.push(await load('wire floor: get_listing answer replayed', `http://127.0.0.1:${replayPort}`, [{ method: 'GET', path: '/' }]));
    // The scenarios build each request anew (setupRequest: a path per request), which costs the
    // load generator itself about 7 us a request on this runtime; the ceiling and the floor measured
    // that way are what a rotating scenario can reach at best.
    const builtEach = [{ method: 'GET', path: '/', setupRequest: (req: { path: string }) => ({ ...req, path: '/' }) }] as autocannon.Request[];
    rows.push(await load('  the same, each request built anew', `http://127.0.0.1:${replayPort}`, builtEach));
    rows.push(await load('hello-world, each request built anew', `http://127.0.0.1:${helloPort}`, builtEach));
  }
  for (const s of await scenarios(db.sql, db.siteId)) {
    if (only && !only.includes(s.name)) continue;
    if (s.edge === 'cold' && !cold) {
      coldPort = await freePort();
      cold = await startProcess('api/main.ts', edgeEnv(coldPort, { CACHE_TTL_SECONDS: '0' }));
    }
    rows.push(await load(s.name, `http://127.0.0.1:${s.edge === 'cold' ? coldPort : edgePort}`, s.requests, s.edge === 'cold' ? cold : edge));
  }
  // BENCH_SOAK_SECONDS: mixed traffic for that long on the warm edge, its memory sampled each second.
  if (soak > 0) {
    const mixed = (await scenarios(db.sql, db.siteId)).find((s) => s.name === 'mixed traffic')!;
    const r = await load(`soak: mixed traffic, ${soak}s`, `http://127.0.0.1:${edgePort}`, mixed.requests, edge, soak);
    rows.push(r);
    const minute = (i: number) => r.samples.slice(Math.max(0, i - 30), i + 30);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const first = mean(minute(30));
    const last = mean(minute(r.samples.length - 31));
    soakLine = `soak: edge RSS ${first.toFixed(0)} MB in the first minute, ${last.toFixed(0)} MB in the last, peak ${r.peak.toFixed(0)} MB over ${r.samples.length} samples`;
  }
  const ceiling = rows[0].rps;
  console.log(`\n${target} listings, ${connections} connections, ${duration}s each, Bun ${Bun.version}\n`);
  console.log('scenario                                   req/s    p50 ms  p99 ms  % of ceiling  non-2xx+errors  edge RSS MB (peak)');
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(40)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(7)} ${((r.rps / ceiling) * 100).toFixed(1).padStart(12)}% ${String(r.bad).padStart(14)} ${r.peak ? r.peak.toFixed(0).padStart(19) : ''}`,
    );
  }
  if (soakLine) console.log(`\n${soakLine}`);
  // The hot path's targets on this run's rows: informative, never a failure (they are ratios to a
  // ceiling that moves with the machine; see docs/performance.md).
  const judged = judgeTargets(rows, ceiling);
  if (judged.length) {
    const width = Math.max(...judged.map((t) => t.what.length));
    console.log(`\n${'target'.padEnd(width)}  ${'this run'.padEnd(18)}`);
    for (const t of judged) console.log(`${t.what.padEnd(width)}  ${t.value.padEnd(18)}  ${t.met ? 'met' : 'NOT MET'}`);
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
  replay?.kill('SIGTERM');
  await db.stop();
}
// Failed or timed-out requests make the run fail, so a broken scenario is never reported as a number.
process.exit(process.exitCode ?? 0);
