import { afterAll, expect, test } from 'bun:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../eventually.ts';
import { freePort } from '../ports.ts';

// `npm start` supervises. A killed worker or edge is restarted (the other keeps
// serving), a killed embedded PostgreSQL is noticed and started again, Ctrl-C still stops
// everything cleanly, and a crash loop stops everything with a message and exit code 1.
const root = join(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'directory-supervise-'));
chmodSync(dataDir, 0o755);
let pgPort = 0;
let running: ChildProcess | undefined;
afterAll(async () => {
  if (running && running.exitCode === null) {
    running.kill('SIGINT');
    await new Promise((r) => running!.once('exit', r));
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const postmaster = () => Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);

async function launch(env: Record<string, string>) {
  pgPort ||= await freePort();
  const port = await freePort();
  let out = '';
  const child = spawn(process.execPath, [join(root, 'deploy/start-all.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      SEED_ON_EMPTY: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running = child;
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const base = `http://127.0.0.1:${port}`;
  const pid = (name: string) => {
    const all = [...out.matchAll(new RegExp(`${name} started \\(pid (\\d+)\\)`, 'g'))];
    return all.length ? Number(all.at(-1)![1]) : 0;
  };
  const until = async (what: string, ms: number, f: () => Promise<boolean> | boolean) => {
    const t = Date.now();
    const done = await eventually(
      async () => {
        if (await f()) return true;
        if (child.exitCode !== null && what !== 'exit') throw new Error(`npm start exited while waiting for ${what}:\n${out}`);
        return false;
      },
      Boolean,
      { tries: Math.ceil(ms / 100), everyMs: 100 },
    );
    if (!done) throw new Error(`timed out waiting for ${what}:\n${out}`);
    return Date.now() - t;
  };
  const status = async (path: string) => {
    try {
      return (await fetch(`${base}${path}`, { signal: AbortSignal.timeout(3000) })).status;
    } catch {
      return 0;
    }
  };
  await until('the edge', 120_000, async () => (await status('/healthz')) === 200 && pid('worker') > 0);
  return { child, base, pid, until, status, output: () => out };
}

test('a killed worker, edge or database is restarted; Ctrl-C still stops everything', async () => {
  const s = await launch({ SUPERVISE_MAX_CRASHES: '10' });
  await s.until('readiness', 30_000, async () => (await s.status('/readyz')) === 200);

  // The worker: restarted, and the edge serves throughout.
  const worker1 = s.pid('worker');
  process.kill(worker1, 'SIGKILL');
  const workerBack = await s.until('a new worker', 30_000, async () => {
    expect(await s.status('/healthz')).toBe(200);
    return s.pid('worker') !== worker1 && alive(s.pid('worker'));
  });
  console.log(`worker SIGKILLed: a new worker in ${workerBack} ms; the edge answered throughout`);
  expect(s.output()).toMatch(/worker exited \(SIGKILL\); restarting it in 1 s/);

  // The edge: restarted on the same port.
  const edge1 = s.pid('edge');
  process.kill(edge1, 'SIGKILL');
  const edgeBack = await s.until('the edge again', 30_000, async () => s.pid('edge') !== edge1 && (await s.status('/api/v1/site')) === 200);
  console.log(`edge SIGKILLed: answering again in ${edgeBack} ms`);

  // The embedded PostgreSQL: noticed, started again; the same edge serves again.
  const pg1 = postmaster();
  const edge2 = s.pid('edge');
  process.kill(pg1, 'SIGKILL');
  const downSeen = await s.until('the edge to see the outage', 10_000, async () => (await s.status('/readyz')) === 503);
  const pgBack = await s.until('the database again', 60_000, async () => (await s.status('/readyz')) === 200);
  console.log(`postgres SIGKILLed: /readyz 503 within ${downSeen} ms, 200 again ${pgBack} ms later (same edge process: ${s.pid('edge') === edge2})`);
  expect(s.output()).toMatch(/embedded PostgreSQL died/);
  // The supervisor says so once its start step returns, which can be a moment after the edge is
  // served again by the new server: wait for the line rather than race it.
  await s.until('the restart message', 10_000, () => /embedded PostgreSQL is running again/.test(s.output()));
  expect(s.pid('edge')).toBe(edge2);
  expect(await s.status('/api/v1/listings?q=notes')).toBe(200);

  const pids = [s.pid('edge'), s.pid('worker'), postmaster()];
  const code = new Promise<number | null>((r) => s.child.once('exit', (c) => r(c)));
  s.child.kill('SIGINT');
  expect(await code).toBe(0);
  for (const p of pids) expect(alive(p)).toBe(false);
}, 240_000);

test('a crash loop stops everything with a clear message and exit code 1', async () => {
  const s = await launch({ SUPERVISE_MAX_CRASHES: '3', SUPERVISE_WINDOW_SECONDS: '60' });
  const edge = s.pid('edge');
  const pg = postmaster();
  const exit = new Promise<number | null>((r) => s.child.once('exit', (c) => r(c)));
  for (let i = 0; i < 3; i++) {
    const w = s.pid('worker');
    process.kill(w, 'SIGKILL');
    if (i < 2) await s.until('a new worker', 30_000, () => s.pid('worker') !== w && alive(s.pid('worker')));
  }
  expect(await exit).toBe(1);
  expect(s.output()).toMatch(/worker exited \(SIGKILL\); that is 3 crashes within 60 s, a crash loop: stopping everything/);
  expect(alive(edge)).toBe(false);
  expect(alive(pg)).toBe(false);
}, 180_000);
