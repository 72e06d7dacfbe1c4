import { afterAll, beforeAll, expect, test } from 'bun:test';
import { defaultPoolSize, loadConfig } from '../../core/config.ts';
import { makeListing } from '../../test/builders.ts';
import { eventually, holds } from '../../test/eventually.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { holdTable, waitingOnLocks } from '../../test/table-lock.ts';

// DB_POOL_SIZE bounds the connections each of the edge's pools opens: past the database's cores
// more connections only queue and switch, so the bound is what makes a small machine fast.

const SLUGS = Array.from({ length: 8 }, (_, i) => `pooled-${i}`);
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    env: { CACHE_TTL_SECONDS: '0', DB_POOL_SIZE: '3' },
    prepare: async (sql, siteId) => {
      for (const slug of SLUGS) await makeListing(sql, { siteId, slug, name: slug });
    },
  });
}, 60_000);
afterAll(() => app?.stop());

test('the default is twice the cores, between 4 and 16; DB_POOL_SIZE overrides it', () => {
  expect([1, 2, 3, 8, 64].map((cores) => defaultPoolSize(cores))).toEqual([4, 4, 6, 16, 16]);
  expect(loadConfig({}).db.poolSize).toBe(defaultPoolSize());
  expect(loadConfig({ DB_POOL_SIZE: '40' }).db.poolSize).toBe(40);
});

test('concurrent public reads share DB_POOL_SIZE connections, and all are answered', async () => {
  // Every read waits on a lock the test holds: the reads running in the database are the pool's
  // connections. Alternatives, not profiles: get_listing's misses of one turn share one statement.
  const waiting = () => waitingOnLocks(app.sql);
  const release = await holdTable(app.sql, 'listings');
  let answers: Promise<Response[]>;
  try {
    answers = Promise.all(SLUGS.map((slug) => app.get(`/listings/${slug}/alternatives`)));
    expect(await eventually(waiting, (n) => n === 3)).toBe(3);
    expect(await holds(waiting, (n) => n === 3)).toBe(3);
  } finally {
    await release();
  }
  const res = await answers!;
  expect(res.map((r) => r.status)).toEqual(SLUGS.map(() => 200));
});
