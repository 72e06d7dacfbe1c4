import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeListing } from '../../test/builders.ts';
import { eventually, holds } from '../../test/eventually.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { READS_LINED_UP } from '../server.ts';
import { holdTable, waitingOnLocks } from '../../test/table-lock.ts';

// A client that gives up (a timeout, a closed tab, an agent moving on) leaves its read running in
// PostgreSQL: reads are not cancelled. What bounds them is the reads' pool: each statement ends at
// DB_STATEMENT_TIMEOUT_MS, and a read that finds every connection busy for DB_POOL_WAIT_MS is
// answered 503 with Retry-After instead of queueing behind them.

let short: TestApp;
let long: TestApp;
const prepare = async (sql: TestApp['sql'], siteId: number) => {
  for (const slug of ['held-up', 'held-too', 'held-three']) await makeListing(sql, { siteId, slug, name: slug });
};
beforeAll(async () => {
  short = await startTestApp({ env: { CACHE_TTL_SECONDS: '0', DB_STATEMENT_TIMEOUT_MS: '1000' }, prepare });
  // Above Bun's default idle timeout, so that only Bun's cut could stop the slow read below.
  long = await startTestApp({
    env: { CACHE_TTL_SECONDS: '0', DB_STATEMENT_TIMEOUT_MS: '30000', DB_POOL_SIZE: '1', DB_POOL_WAIT_MS: '300', DB_RETRY_AFTER_SECONDS: '3' },
    prepare,
  });
}, 60_000);
afterAll(async () => {
  await short?.stop();
  await long?.stop();
});

test('reads and page renders whose clients have gone end at the statement timeout; the service answers the next one', async () => {
  const waiting = () => waitingOnLocks(short.sql);
  const release = await holdTable(short.sql, 'listings');
  try {
    const client = new AbortController();
    const gone = [fetch(`${short.api}/listings/held-up`, { signal: client.signal }), fetch(`${short.url}/search?q=held`, { signal: client.signal })].map((p) =>
      p.catch((e) => e),
    );
    expect(await eventually(waiting, (n) => n >= 2)).toBeGreaterThanOrEqual(2);
    client.abort();
    for (const g of gone) expect(await g).toBeInstanceOf(Error);
    // Ended while the lock is still held: the statement timeout, not the lock, let them go.
    expect(await eventually(waiting, (n) => n === 0)).toBe(0);
  } finally {
    await release();
  }
  const res = await short.get('/listings/held-up');
  expect(res.status).toBe(200);
  expect((await res.json()).name).toBe('held-up');
  expect((await fetch(`${short.url}/search?q=held`)).status).toBe(200);
});

test("a read that finds the reads' pool busy is answered 503 with Retry-After, not queued", async () => {
  const waiting = () => waitingOnLocks(long.sql);
  const release = await holdTable(long.sql, 'listings');
  let first: Promise<Response>;
  let more: Promise<Response>[] = [];
  try {
    // The pool's one connection runs a read held by the lock...
    first = long.get('/listings/held-up');
    expect(await eventually(waiting, (n) => n === 1)).toBe(1);
    // ...and has room for a few more lined up behind it (READS_LINED_UP, api/server.ts), not for
    // twice as many: searches, each a statement of its own.
    more = Array.from({ length: 2 * READS_LINED_UP }, (_, i) => long.get(`/listings?q=held${i}`));
    const refused = await Promise.race(more);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('3');
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    // Refused while the first still waits on the lock: it did not wait for that read to end.
    expect(await waiting()).toBe(1);
  } finally {
    await release();
  }
  expect((await first!).status).toBe(200);
  const statuses = (await Promise.all(more)).map((r) => r.status);
  expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
  expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
  expect((await long.get('/listings?q=held')).status).toBe(200);
});

test('a shared read goes on while one of its clients is still waiting', async () => {
  const waiting = () => waitingOnLocks(long.sql);
  const release = await holdTable(long.sql, 'listings');
  let stays: Promise<Response>;
  try {
    const client = new AbortController();
    const gone = fetch(`${long.api}/listings/held-up`, { signal: client.signal }).catch((e) => e);
    expect(await eventually(waiting, (n) => n === 1)).toBe(1);
    // The same read, joined to the one running (one query for both).
    stays = long.get('/listings/held-up');
    // The second request has reached the edge once the read it joined has two clients: give it
    // that moment, as a poll, before the first client leaves.
    await holds(
      async () => 0,
      () => true,
      { tries: 2 },
    );
    client.abort();
    expect(await gone).toBeInstanceOf(Error);
    expect(await holds(waiting, (n) => n === 1)).toBe(1);
  } finally {
    await release();
  }
  const res = await stays!;
  expect(res.status).toBe(200);
  expect((await res.json()).slug).toBe('held-up');
});

test("a read slower than Bun's default idle timeout (10 s) is answered, not cut", async () => {
  const waiting = () => waitingOnLocks(long.sql);
  const release = await holdTable(long.sql, 'listings');
  const slow = long.get('/listings/held-up').catch((e: Error) => e);
  try {
    expect(await eventually(waiting, (n) => n === 1)).toBe(1);
    // Bun's own timer fires between 10 and 15 s: the request must still be waiting after 15 s.
    let settled = false;
    void slow.then(() => {
      settled = true;
    });
    expect(
      await holds(
        async () => settled,
        (done) => !done,
        { tries: 150, everyMs: 100 },
      ),
    ).toBe(false);
  } finally {
    await release();
  }
  const res = await slow;
  expect(res).toBeInstanceOf(Response);
  expect((res as Response).status).toBe(200);
  expect(((await (res as Response).json()) as { slug: string }).slug).toBe('held-up');
}, 30_000);
