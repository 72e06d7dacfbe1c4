import { afterAll, beforeAll, expect, test } from 'bun:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect as tcp } from 'node:net';
import { join } from 'node:path';
import { freshDatabase } from '../db.ts';
import { eventually } from '../eventually.ts';
import { freePort } from '../ports.ts';
import { holdTable } from '../table-lock.ts';

// SIGTERM drains. An edge process (`bun api/main.ts`) stops listening at once, so
// new connections are refused, while every request already in flight completes with its full
// response; then it exits 0. Requests are held in flight by a table lock taken in SQL (no sleeps
// in the server, no timing assertions).
const root = join(import.meta.dirname, '../..');
let db: Awaited<ReturnType<typeof freshDatabase>>;
let edge: ChildProcess | undefined;
let base = '';
let port = 0;
let output = '';

beforeAll(async () => {
  db = await freshDatabase();
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  edge = spawn(process.execPath, [join(root, 'api/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_URL: base,
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
      RATE_LIMIT_ANONYMOUS_READS: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  edge.stdout!.on('data', (d) => {
    output += d;
  });
  edge.stderr!.on('data', (d) => {
    output += d;
  });
  const up = await eventually(
    async () => {
      if (edge!.exitCode !== null) throw new Error(`the edge exited early:\n${output}`);
      return (await fetch(`${base}/healthz`, { headers: { connection: 'close' } }).catch(() => null))?.ok;
    },
    Boolean,
    { tries: 300, everyMs: 100 },
  );
  if (!up) throw new Error(`the edge did not start:\n${output}`);
}, 90_000);

afterAll(async () => {
  if (edge && edge.exitCode === null && edge.signalCode === null) {
    edge.kill('SIGKILL');
    await new Promise((r) => edge!.once('exit', r));
  }
  await db?.drop();
});

/** Whether a new TCP connection to the edge's port is refused. */
const refused = () =>
  new Promise<boolean>((resolve) => {
    const s = tcp({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });

test('SIGTERM: requests in flight finish with full responses, new connections are refused, exit 0', async () => {
  const IN_FLIGHT = 12;
  // Hold an exclusive lock on categories: every list_categories request waits in the database.
  const release = await holdTable(db.sql, 'categories');
  const requests = Array.from({ length: IN_FLIGHT }, (_, i) =>
    fetch(`${base}/api/v1/categories`, { headers: { connection: 'close', 'x-request-id': `drain-${i}` } }).then(
      async (r) => ({ status: r.status, body: await r.text() }),
      (err: Error) => ({ status: 0, body: String(err) }),
    ),
  );
  // Keep-alive clients too: their answers come complete and say Connection: close, so no client
  // sends another request on a connection that is going away.
  const keepAlive = Array.from({ length: 4 }, (_, i) =>
    fetch(`${base}/api/v1/categories`, { headers: { 'x-request-id': `drain-keep-alive-${i}` } }).then(
      async (r) => ({ status: r.status, connection: r.headers.get('connection'), body: await r.text() }),
      (err: Error) => ({ status: 0, connection: null, body: String(err) }),
    ),
  );
  // Every request is in the database, waiting for the lock.
  await eventually(
    async () => {
      const [{ n }] =
        await db.sql`select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'categories' and not l.granted`;
      if (n < 1) return false;
      const [{ waiting }] = await db.sql`select count(*)::int as waiting from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`;
      return waiting >= Math.min(IN_FLIGHT, 20);
    },
    Boolean,
    { tries: 200, everyMs: 50 },
  );
  const exited = new Promise<number | null>((r) => edge!.once('exit', (code) => r(code)));
  edge!.kill('SIGTERM');
  // The listener closes at once: new connections are refused while the old requests still wait.
  const closed = await eventually(refused, Boolean, { tries: 100, everyMs: 50 });
  expect(closed).toBe(true);
  expect(edge!.exitCode).toBeNull(); // still draining
  await release();
  const answers = await Promise.all(requests);
  for (const a of answers) {
    expect(a.status).toBe(200);
    expect(Array.isArray(JSON.parse(a.body).items ?? JSON.parse(a.body))).toBe(true);
  }
  for (const a of await Promise.all(keepAlive)) {
    expect(a.status).toBe(200);
    expect(a.connection).toBe('close');
    expect(Array.isArray(JSON.parse(a.body).items ?? JSON.parse(a.body))).toBe(true);
  }
  expect(await exited).toBe(0);
}, 90_000);
