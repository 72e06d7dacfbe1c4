import { afterAll, beforeAll, expect, test } from 'bun:test';
import { heapStats } from 'bun:jsc';
import { freshDatabase } from '../test/db.ts';
import { eventually } from '../test/eventually.ts';
import { holdTable, waitingOnLocks } from '../test/table-lock.ts';
import { connect, heavy } from '../sql/db.ts';
import { HEAVY_SHARE, guardDatabase } from './database-guard.ts';
import { DomainError } from './errors/index.ts';

// The guard wraps every query of the edge: whatever it keeps per query must go with the query.
// (It once raced each query against one long-lived promise, which kept every result reachable.)

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
}, 60_000);
afterAll(() => db?.drop());

const live = () => {
  Bun.gc(true);
  const counts = heapStats().objectTypeCounts;
  return { promises: counts.Promise ?? 0, arrays: counts.Array ?? 0 };
};

test('answered queries leave nothing behind in the guard', async () => {
  const { sql, health } = guardDatabase(db.sql, { url: db.url, retryAfterSeconds: 1, connectTimeoutMs: 2000, deadlineMs: 10_000 });
  const run = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const rows = await sql<{ a: number[] }[]>`select array[${i}::int, 2, 3] as a`;
      expect(rows[0]!.a[0]).toBe(i);
    }
    // Failed queries too: an error answered to the caller is not kept either.
    for (let i = 0; i < n / 10; i++) await expect(sql`select 1/0`).rejects.toThrow();
  };
  await run(200);
  const before = live();
  await run(3000);
  const after = live();
  // Thousands of queries later, no more live promises or result arrays than a few stragglers.
  expect(after.promises - before.promises).toBeLessThan(100);
  expect(after.arrays - before.arrays).toBeLessThan(300);
  await health.close();
});

test('a statement past its timeout is a 503 to retry (DomainError unavailable), and the breaker stays closed', async () => {
  const { sql, health } = guardDatabase(db.sql, { url: db.url, retryAfterSeconds: 3, connectTimeoutMs: 2000, deadlineMs: 10_000 });
  try {
    const slow = sql.begin(async (tx) => {
      await tx`set local statement_timeout = 50`;
      await tx`select pg_sleep(1)`;
    });
    const err = (await slow.then(
      () => null,
      (e) => e,
    )) as DomainError;
    expect(err).toBeInstanceOf(DomainError);
    expect({ code: err.code, retry: err.retryAfterSeconds }).toEqual({ code: 'unavailable', retry: 3 });
    expect(health.up).toBe(true);
    // Other failures stay what they are.
    expect(await sql`select 1/0`.then(String, (e) => e instanceof DomainError)).toBe(false);
    expect((await sql`select 1 as one`)[0]!.one).toBe(1);
  } finally {
    await health.close();
  }
});

test('with a pool wait, a query that finds every connection busy past it is a 503 to retry; the ones running are not touched', async () => {
  const pool = connect(db.url, { max: 2 });
  const { sql, health } = guardDatabase(pool, {
    url: db.url,
    retryAfterSeconds: 4,
    connectTimeoutMs: 2000,
    deadlineMs: 60_000,
    poolWait: { permits: 2, ms: 200 },
  });
  const release = await holdTable(db.sql, 'sites');
  let held: Promise<unknown>[] = [];
  try {
    held = [1, 2].map((i) => sql`select count(*) + ${i} as n from sites`.then(() => 'answered'));
    expect(
      await eventually(
        () => waitingOnLocks(db.sql),
        (n) => n === 2,
      ),
    ).toBe(2);
    const err = (await sql`select 1 as one`.then(
      () => null,
      (e) => e,
    )) as DomainError;
    expect(err).toBeInstanceOf(DomainError);
    expect({ code: err.code, retry: err.retryAfterSeconds }).toEqual({ code: 'unavailable', retry: 4 });
    // Refused while both are still waiting on the lock: it never queued behind them.
    expect(await waitingOnLocks(db.sql)).toBe(2);
    expect(health.up).toBe(true);
  } finally {
    await release();
  }
  expect(await Promise.all(held)).toEqual(['answered', 'answered']);
  // Their connections are free again.
  expect((await sql`select 1 as one`)[0]!.one).toBe(1);
  await health.close();
  await pool.end();
});

test('heavy statements have a share of the pool wait: a third heavy one past two of eight is refused, a light one still gets a permit', async () => {
  const pool = connect(db.url, { max: 2 });
  const permits = 2 * HEAVY_SHARE;
  const { sql, health } = guardDatabase(pool, {
    url: db.url,
    retryAfterSeconds: 4,
    connectTimeoutMs: 2000,
    deadlineMs: 10_000,
    poolWait: { permits, ms: 200 },
  });
  const release = await holdTable(db.sql, 'sites');
  let held: Promise<unknown>[] = [];
  try {
    held = [1, 2].map((i) => heavy(sql`select count(*) + ${i} as n from sites`).then(() => 'answered'));
    expect(
      await eventually(
        () => waitingOnLocks(db.sql),
        (n) => n === 2,
      ),
    ).toBe(2);
    // Refused for want of a heavy permit, not lined up behind the held statements (it would wait for them).
    const err = (await heavy(sql`select 1 as one`).then(
      () => null,
      (e) => e,
    )) as DomainError;
    expect(err).toBeInstanceOf(DomainError);
    expect({ code: err.code, message: err.message }).toEqual({ code: 'unavailable', message: 'Every database connection is busy; retry shortly.' });
    // A light read has a permit: it is handed to the pool and lines up behind them.
    held.push(sql`select 2 as two`.then((rows) => rows[0]!.two));
  } finally {
    await release();
  }
  expect(await Promise.all(held)).toEqual(['answered', 'answered', 2]);
  // Their permits are back: a heavy statement runs again.
  expect((await heavy(sql`select 1 as one`))[0]!.one).toBe(1);
  await health.close();
  await pool.end();
});
