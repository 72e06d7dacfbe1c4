import { afterAll, beforeAll, expect, test } from 'bun:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { connect } from '../../sql/db.ts';
import { migrate } from '../../sql/migrate.ts';
import { ensureSite } from '../../sql/site.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { createApiKey } from '../../core/auth/api-keys.ts';
import { eventually } from '../eventually.ts';
import { freePort } from '../ports.ts';
import { privatePg, type PrivatePg } from './private-pg.ts';
import { fmt, load } from './load.ts';

// PostgreSQL: the edge runs as its own process against a private embedded
// PostgreSQL, which the test kills (SIGKILL of the postmaster) and restarts. While it is down
// every request that needs the database answers a 503 problem with Retry-After within a couple
// of seconds, /readyz is 503 and /healthz 200; once it is back the same edge process recovers.
const root = join(import.meta.dirname, '../..');
let pg: PrivatePg;
let edge: ChildProcess;
let worker: ChildProcess;
let base = '';
let key = '';
let out = '';

beforeAll(async () => {
  pg = await privatePg();
  const sql = connect(pg.url, { max: 1 });
  await migrate(sql, pg.url);
  const port = await freePort();
  await ensureSite(sql, 'main', `http://127.0.0.1:${port}`);
  const user = await findOrCreateUser(sql, 'pg-fault@example.com');
  key = (await createApiKey(sql, { userId: user.id, name: 'fault', scopes: ['account:read'] })).secret;
  await sql.end();
  edge = spawn(process.execPath, [join(root, 'api/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: pg.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
      RATE_LIMIT_ANONYMOUS_READS: '1000000',
      RATE_LIMIT_AUTHENTICATED_READS: '1000000',
      CACHE_TTL_SECONDS: '60',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  edge.stdout!.on('data', (d) => {
    out += d;
  });
  edge.stderr!.on('data', (d) => {
    out += d;
  });
  base = `http://127.0.0.1:${port}`;
  // A worker beside it: it must wait out the outage, not exit.
  worker = spawn(process.execPath, [join(root, 'pipeline/main.ts')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: pg.url, LOG_LEVEL: 'warn', VIEW_REFRESH_CRON: '0 0 1 1 *' },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  await eventually(
    async () => {
      if (edge.exitCode !== null) throw new Error(`edge exited:\n${out}`);
      return (await fetch(`${base}/healthz`).catch(() => null))?.ok;
    },
    Boolean,
    { tries: 300, everyMs: 100 },
  );
}, 120_000);

afterAll(async () => {
  for (const c of [edge, worker])
    if (c && c.exitCode === null && c.signalCode === null) {
      c.kill('SIGTERM');
      await new Promise((r) => c.once('exit', r));
    }
  await pg?.stop();
});

let n = 0;
const uncached = (signal?: AbortSignal) => fetch(`${base}/api/v1/listings?q=${encodeURIComponent(`word${n++}`)}`, { signal }); // a new query each time: never cached
const account = (signal?: AbortSignal) => fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${key}` }, signal }); // resolves a credential
const cached = (signal?: AbortSignal) => fetch(`${base}/api/v1/site`, { signal });
const mcpAccount = (signal?: AbortSignal) =>
  fetch(`${base}/mcp`, {
    signal,
    // MCP: the credential is resolved before the tool runs
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_account', arguments: {} } }),
  });

/** One request, its status and time; no answer in 20 s counts as status 0. */
async function timed(f: (signal: AbortSignal) => Promise<Response>) {
  const t = performance.now();
  try {
    const res = await f(AbortSignal.timeout(20_000));
    const text = await res.text();
    return {
      status: res.status,
      ms: Math.round(performance.now() - t),
      retryAfter: res.headers.get('retry-after'),
      type: res.headers.get('content-type'),
      body: text,
    };
  } catch (err) {
    return { status: 0, ms: Math.round(performance.now() - t), retryAfter: null, type: null, body: String(err) };
  }
}

test('PostgreSQL killed: 503 problems with Retry-After within 2 s, /readyz red, /healthz green; recovery without restarting the edge', async () => {
  expect((await timed(uncached)).status).toBe(200);
  expect((await timed(account)).status).toBe(200);
  expect((await timed(cached)).status).toBe(200);
  expect((await timed((signal) => fetch(`${base}/readyz`, { signal }))).status).toBe(200);
  const up = await load({ ms: 1500, clients: 4, request: () => uncached() });
  console.log(fmt('pg up (uncached reads)', up));

  // Prime the cached read last: the worker's own jobs (view refresh, awards) may have announced a
  // change since, which retires cache entries made before it.
  expect((await timed(cached)).status).toBe(200);
  await pg.kill();
  const killedAt = performance.now();
  const first = [await timed(uncached), await timed(account), await timed(mcpAccount), await timed(uncached)];
  console.log('pg killed, first answers:', first.map((r) => `${r.status} in ${r.ms} ms`).join(', '));
  for (const r of first) {
    expect(r.status).toBe(503);
    expect(r.ms).toBeLessThan(2500);
    expect(r.retryAfter).toMatch(/^\d+$/);
    expect(r.type).toContain('application/problem+json');
  }
  // Site pages (public pages and the account pages) too: a 503 page with Retry-After, never a 500,
  // and the edge lives on (a view counted on a listing page must not end the process).
  for (const path of [`/search?q=down${n++}`, '/listings/not-cached-while-down', '/claims/confirm/ldv_while_down']) {
    const r = await timed((signal) => fetch(`${base}${path}`, { signal }));
    expect([path, r.status]).toEqual([path, 503]);
    expect(r.retryAfter).toMatch(/^\d+$/);
    expect(r.type).toContain('text/html');
  }
  const down = await load({ ms: 3000, clients: 4, request: (i) => (i % 2 ? uncached() : account()), timeoutMs: 20_000 });
  console.log(fmt('pg down (uncached reads + authenticated)', down));
  expect(down.statuses[503]).toBe(down.count);
  expect(down.max).toBeLessThan(2500);
  const ready = await timed((signal) => fetch(`${base}/readyz`, { signal }));
  console.log(`pg down: /readyz ${ready.status} in ${ready.ms} ms ${ready.body}`);
  expect(ready.status).toBe(503);
  expect(ready.ms).toBeLessThan(2500);
  const live = await timed((signal) => fetch(`${base}/healthz`, { signal }));
  expect(live.status).toBe(200);
  const fromCache = await timed(cached);
  console.log(`pg down: cached public read ${fromCache.status} in ${fromCache.ms} ms`);
  expect(fromCache.status).toBe(200); // served from the cache while its entry lives

  await pg.restart();
  const restartedAt = performance.now();
  const recovered = await eventually(
    async () =>
      (await timed(uncached)).status === 200 && (await timed((signal) => fetch(`${base}/readyz`, { signal }))).status === 200 ? performance.now() : 0,
    Boolean,
    { tries: 200, everyMs: 100 },
  );
  console.log(
    `pg restarted: edge answers 200 again ${Math.round(recovered - restartedAt)} ms after the database is back (down ${Math.round(restartedAt - killedAt)} ms in all)`,
  );
  expect(recovered).toBeGreaterThan(0);
  expect((await timed(account)).status).toBe(200);
  expect((await timed(mcpAccount)).status).toBe(200);
  const after = await load({ ms: 1500, clients: 4, request: () => uncached() });
  console.log(fmt('pg back (uncached reads)', after));
  expect(after.statuses[200]).toBe(after.count);
  expect(edge.exitCode).toBeNull(); // the same edge process throughout

  // The worker outlived the outage and runs jobs again.
  expect(worker.exitCode).toBeNull();
  expect(worker.signalCode).toBeNull();
  const sql = connect(pg.url, { max: 1 });
  try {
    const [job] = await sql`select (graphile_worker.add_job('award_weeks', '{}'::json)).id::text as id`;
    const t = performance.now();
    const left = await eventually(
      async () => (await sql`select count(*)::int as n from graphile_worker._private_jobs where id = ${job.id}`)[0].n as number,
      (n) => n === 0,
      { tries: 300, everyMs: 100 },
    );
    console.log(`pg back: the same worker process ran a new job in ${Math.round(performance.now() - t)} ms`);
    expect(left).toBe(0);
    // The edge listens for changes again: a write announced now invalidates its cached reads.
    const before = (await (await cached()).json()).counts.categories as number;
    await sql`insert into categories (slug, name, position) values ('after-outage', 'After Outage', 99)`;
    await sql`select directory_changed()`;
    const now = await eventually(
      async () => (await (await cached()).json()).counts.categories as number,
      (n) => n !== before,
      { tries: 100, everyMs: 100 },
    );
    expect(now).toBe(before + 1);
  } finally {
    await sql.end();
  }
}, 180_000);
