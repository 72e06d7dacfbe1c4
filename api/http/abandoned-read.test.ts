import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeListing } from '../../test/builders.ts';
import { eventually, holds } from '../../test/eventually.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { holdTable, waitingOnLocks } from '../../test/table-lock.ts';

// A client that gives up (a timeout, a closed tab, an agent moving on) must not leave its read
// running in PostgreSQL until the statement timeout: at a million listings, abandoned searches
// once slowed every request after them.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    // Above Bun's default idle timeout, so that only Bun's cut can stop the slow read below.
    env: { CACHE_TTL_SECONDS: '0', DB_STATEMENT_TIMEOUT_MS: '30000' },
    prepare: async (sql, siteId) => void (await makeListing(sql, { siteId, slug: 'held-up', name: 'Held Up' })),
  });
}, 60_000);
afterAll(() => app?.stop());

/** Reads of the listing waiting on the lock the test holds. */
const waiting = () => waitingOnLocks(app.sql);
const holdListings = () => holdTable(app.sql, 'listings');

test('a read whose client has gone is cancelled in the database; the service answers the next one', async () => {
  const release = await holdListings();
  try {
    const client = new AbortController();
    const gone = fetch(`${app.api}/listings/held-up`, { signal: client.signal }).catch((e) => e);
    expect(await eventually(waiting, (n) => n === 1)).toBe(1);
    client.abort();
    expect(await gone).toBeInstanceOf(Error);
    // Cancelled while the lock is still held: it did not wait for it.
    expect(await eventually(waiting, (n) => n === 0)).toBe(0);
  } finally {
    await release();
  }
  const res = await app.get('/listings/held-up');
  expect(res.status).toBe(200);
  expect((await res.json()).name).toBe('Held Up');
});

test('a shared read goes on while one of its clients is still waiting', async () => {
  const release = await holdListings();
  let stays: Promise<Response>;
  try {
    const client = new AbortController();
    const gone = fetch(`${app.api}/listings/held-up`, { signal: client.signal }).catch((e) => e);
    expect(await eventually(waiting, (n) => n === 1)).toBe(1);
    // The same read, joined to the one running (one query for both).
    stays = app.get('/listings/held-up');
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

test('a page render whose visitor has gone is cancelled too', async () => {
  const release = await holdListings();
  try {
    const client = new AbortController();
    const gone = fetch(`${app.url}/search?q=held`, { signal: client.signal }).catch((e) => e);
    expect(await eventually(waiting, (n) => n >= 1)).toBeGreaterThanOrEqual(1);
    client.abort();
    expect(await gone).toBeInstanceOf(Error);
    expect(await eventually(waiting, (n) => n === 0)).toBe(0);
  } finally {
    await release();
  }
  expect((await fetch(`${app.url}/search?q=held`)).status).toBe(200);
});

test("a read slower than Bun's default idle timeout (10 s) is answered, not cut", async () => {
  const release = await holdListings();
  const slow = app.get('/listings/held-up').catch((e: Error) => e);
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
