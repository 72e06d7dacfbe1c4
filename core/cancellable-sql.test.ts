import { afterAll, beforeAll, expect, test } from 'bun:test';
import { freshDatabase } from '../test/db.ts';
import { eventually, holds, settles } from '../test/eventually.ts';
import { cancellableSql, RequestAbandoned } from './cancellable-sql.ts';
import { guardDatabase } from './database-guard.ts';
import { connect } from '../sql/db.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
}, 60_000);
afterAll(() => db?.drop());

const sleeping = async () =>
  (await db.sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where query like 'select pg_sleep(30)%' and state = 'active'`)[0]!.n;

test('a query of an abandoned request is cancelled on the server; queries after that do not start', async () => {
  const { sql: guarded, health } = guardDatabase(db.sql, { url: db.url, retryAfterSeconds: 1, connectTimeoutMs: 2000, deadlineMs: 60_000 });
  const client = new AbortController();
  const sql = cancellableSql(guarded, client.signal);
  const started = Date.now();
  const running = sql`select pg_sleep(30)`.then(
    () => 'finished',
    (e) => e,
  );
  expect(await eventually(sleeping, (n) => n === 1)).toBe(1);
  client.abort();
  expect(await running).toBeInstanceOf(RequestAbandoned);
  expect(Date.now() - started).toBeLessThan(20_000);
  expect(await eventually(sleeping, (n) => n === 0)).toBe(0);
  // Awaited as the handlers do (a postgres.js query runs when its then() is called).
  expect(await sql`select 1`.then(String, (e) => e)).toBeInstanceOf(RequestAbandoned);
  expect(await sql.unsafe('select 1').then(String, (e) => e)).toBeInstanceOf(RequestAbandoned);
  // The breaker saw an ordinary query failure, not an outage.
  expect(health.up).toBe(true);
  await health.close();
});

test('fragments and answered queries are left alone; other requests are not touched', async () => {
  const client = new AbortController();
  const sql = cancellableSql(db.sql, client.signal);
  const other = db.sql`select pg_sleep(0.3) as slept`;
  const where = sql`where x > ${1}`;
  const rows = await sql`select x from generate_series(1, 3) as x ${where}`;
  expect(rows.map((r) => r.x)).toEqual([2, 3]);
  const unhandled: unknown[] = [];
  const note = (e: unknown) => unhandled.push(e);
  process.on('unhandledRejection', note);
  try {
    client.abort();
    // The other request's query runs to its end, and nothing the abandoned one built rejects later.
    expect((await other)[0]).toHaveProperty('slept');
    expect(
      await holds(
        async () => unhandled.length,
        (n) => n === 0,
      ),
    ).toBe(0);
  } finally {
    process.off('unhandledRejection', note);
  }
});

test("a query still waiting in a busy connection's pipeline is left to run: it and the ones behind it get their own answers", async () => {
  const pool = connect(db.url, { max: 1 });
  try {
    // Statements postgres.js has prepared already: only those are pipelined.
    for (let i = 0; i < 2; i++) {
      await pool`select pg_sleep(${0})`;
      await pool`select ${1}::int as two`;
      await pool`select ${1}::int as three`;
    }
    const first = pool`select pg_sleep(${0.3})`.then(() => 'first');
    const busy = async () => (await db.sql`select count(*)::int as n from pg_stat_activity where query like 'select pg_sleep($1)%' and state = 'active'`)[0]!.n;
    expect(await eventually(busy, (n) => n === 1)).toBe(1);
    const client = new AbortController();
    // Sent behind the first on the one connection, and another request's query behind that.
    const queued = cancellableSql(pool, client.signal)`select ${2}::int as two`.then(
      (rows) => rows[0]!.two,
      (e) => e,
    );
    const behind = pool`select ${3}::int as three`.then((rows) => rows[0]);
    // Both are written to the connection within a turn of the event loop (postgres.js sends a
    // query a few microtasks after it is awaited); the first still runs on the server.
    await new Promise((r) => setImmediate(r));
    client.abort();
    const settled = await settles(queued);
    expect(settled.settled && (settled.value === 2 || settled.value instanceof RequestAbandoned)).toBe(true);
    expect(await settles(behind)).toEqual({ settled: true, value: { three: 3 } });
    expect(await first).toBe('first');
  } finally {
    await pool.end({ timeout: 1 });
  }
});

test('a read stopped by a cancel meant for another (it landed late on this connection) runs again', async () => {
  const client = new AbortController();
  const sql = cancellableSql(db.sql, client.signal);
  const answered = sql`select pg_sleep(0.4), 42 as answer`.then((rows) => rows[0]!.answer);
  const active = async () => (await db.sql`select pid from pg_stat_activity where query like 'select pg_sleep(0.4)%' and state = 'active'`).length;
  expect(await eventually(active, (n) => n === 1)).toBe(1);
  // Another request's cancel, as PostgreSQL delivers it: to whatever the backend runs now.
  await db.sql`select pg_cancel_backend(pid) from pg_stat_activity where query like 'select pg_sleep(0.4)%' and state = 'active'`;
  expect(await answered).toBe(42);
  // A statement timeout is not a cancel to retry: it is answered as it is.
  const timeout = db.sql.begin(async (tx) => {
    await tx`set local statement_timeout = 50`;
    return cancellableSql(tx as never, client.signal)`select pg_sleep(1)`;
  });
  expect(await timeout.then(String, (e) => e.message)).toMatch(/statement timeout/);
});

test('a cancel that fails (its socket reset) is caught, not left to end the process', async () => {
  // postgres.js's own shape: a lazy thenable whose cancel() drops the canceller's promise.
  let cancelled = 0;
  const running = {
    active: true,
    // biome-ignore lint/suspicious/noThenProperty: a stand-in for a postgres.js query, which is a thenable
    then: () => new Promise(() => {}),
    canceller: (_q: unknown) => {
      cancelled++;
      return Promise.reject(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    },
    cancel() {
      if (!this.canceller) return null;
      void this.canceller(this); // dropped, as postgres.js drops it
      this.canceller = null as never;
      return null;
    },
  };
  const fake = ((strings: TemplateStringsArray) => (strings ? running : null)) as unknown as Parameters<typeof cancellableSql>[0];
  const unhandled: unknown[] = [];
  const note = (e: unknown) => unhandled.push(e);
  process.on('unhandledRejection', note);
  try {
    const client = new AbortController();
    const sql = cancellableSql(fake, client.signal);
    void sql`select 1`.then(() => {});
    client.abort();
    expect(
      await eventually(
        async () => cancelled,
        (n) => n === 1,
      ),
    ).toBe(1);
    expect(
      await holds(
        async () => unhandled.length,
        (n) => n === 0,
      ),
    ).toBe(0);
  } finally {
    process.off('unhandledRejection', note);
  }
});
