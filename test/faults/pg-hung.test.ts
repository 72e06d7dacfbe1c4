import { afterAll, beforeAll, expect, test } from 'bun:test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '../../sql/db.ts';
import { migrate } from '../../sql/migrate.ts';
import { ensureSite } from '../../sql/site.ts';
import { eventually, until } from '../eventually.ts';
import { freePort } from '../ports.ts';
import { privatePg, type PrivatePg } from './private-pg.ts';
import { fmt, load } from './load.ts';

// The hung variant: PostgreSQL stops answering without closing its connections
// (SIGSTOP of the postmaster and its backends). Connections stay open, so only time caps help:
// each query is bounded by DB_STATEMENT_TIMEOUT_MS + DB_POOL_WAIT_MS, after which the breaker
// opens and requests get 503 at once until the database answers again.
const root = join(import.meta.dirname, '../..');
let pg: PrivatePg;
let edge: ChildProcess;
let base = '';
let paused: number[] = [];

beforeAll(async () => {
  pg = await privatePg();
  const sql = connect(pg.url, { max: 1 });
  await migrate(sql, pg.url);
  const port = await freePort();
  await ensureSite(sql, 'main', `http://127.0.0.1:${port}`);
  await sql.end();
  edge = spawn(process.execPath, [join(root, 'api/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: pg.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'silent',
      REDIS_URL: '',
      RATE_LIMIT_ANONYMOUS_READS: '1000000',
      DB_STATEMENT_TIMEOUT_MS: '1000',
      DB_POOL_WAIT_MS: '500',
      DB_CONNECT_TIMEOUT_MS: '1000',
    },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  base = `http://127.0.0.1:${port}`;
  await until('the edge to answer /healthz', async () => (await fetch(`${base}/healthz`).catch(() => null))?.ok, { ms: 30_000 });
}, 120_000);

afterAll(async () => {
  for (const p of paused) {
    try {
      process.kill(p, 'SIGCONT');
    } catch {
      /* gone */
    }
  }
  if (edge && edge.exitCode === null) {
    edge.kill('SIGTERM');
    await new Promise((r) => edge.once('exit', r));
  }
  await pg?.stop();
});

let n = 0;
const uncached = () => fetch(`${base}/api/v1/listings?q=${encodeURIComponent(`hung${n++}`)}`);

test('a hung PostgreSQL: requests are cut at the statement timeout plus pool wait, then answered 503 at once; recovery when it resumes', async () => {
  expect((await uncached()).status).toBe(200);
  const postmaster = Number(readFileSync(join(pg.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = spawnSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)])
    .stdout.toString()
    .split('\n')
    .map(Number)
    .filter(Boolean);
  paused = [postmaster, ...children];
  for (const p of paused) process.kill(p, 'SIGSTOP');
  const hung = await load({ ms: 4000, clients: 4, request: () => uncached(), timeoutMs: 20_000 });
  console.log(fmt('pg hung (statement 1 s + pool wait 0.5 s)', hung));
  expect(hung.statuses[503]).toBe(hung.count);
  expect(hung.max).toBeLessThan(4000); // the first ones wait out the deadline (1.5 s), the rest get 503 at once
  expect(hung.p50).toBeLessThan(100);
  expect((await fetch(`${base}/readyz`)).status).toBe(503);
  for (const p of paused) process.kill(p, 'SIGCONT');
  paused = [];
  const t = performance.now();
  const ok = await eventually(async () => (await uncached()).status === 200, Boolean, { tries: 100, everyMs: 100 });
  console.log(`pg resumed: 200 again after ${Math.round(performance.now() - t)} ms`);
  expect(ok).toBe(true);
}, 120_000);
