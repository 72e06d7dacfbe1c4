import { expect, test } from 'bun:test';
import { createCache, entryBytes, type CachedBody } from './cache.ts';

// The in-process response cache is bounded by bytes: pages and long lists are far larger than a
// listing, so a count of entries bounded nothing (5,000 cached pages could hold hundreds of MB).

const answer = (i: number, chars = 2000): CachedBody => ({ body: `{"n":${i},"pad":"${'x'.repeat(chars)}"}`, etag: `"etag-${i}"` });

test('the in-process store never holds more than its budget, and drops the least recently used first', async () => {
  const budget = 200_000;
  const cache = createCache({ ttlSeconds: 60, maxBytes: budget, redisUrl: null, initialGeneration: 0 });
  await cache.set('k0', answer(0));
  for (let i = 1; i < 100; i++) {
    await cache.set(`k${i}`, answer(i));
    expect(await cache.get('k0')).not.toBeNull(); // read on every round: the most recently used
  }
  const kept: number[] = [];
  for (let i = 0; i < 100; i++) if (await cache.get(`k${i}`)) kept.push(i);
  const held = kept.reduce((sum, i) => sum + entryBytes(`k${i}`, answer(i)), 0);
  expect(held).toBeLessThanOrEqual(budget);
  expect(kept.length).toBeGreaterThan(30); // about 4.2 KB each: the budget is used, not wasted
  expect(kept).toContain(0);
  expect(kept).toContain(99);
  expect(kept).not.toContain(1); // the oldest never read again went first
  expect((await cache.get('k99'))?.body).toBe(answer(99).body);
});

test('an answer larger than the whole budget is answered but not kept, and evicts nothing', async () => {
  const cache = createCache({ ttlSeconds: 60, maxBytes: 50_000, redisUrl: null, initialGeneration: 0 });
  await cache.set('small', answer(1, 100));
  await cache.set('huge', answer(2, 100_000));
  expect(await cache.get('huge')).toBeNull();
  expect(await cache.get('small')).not.toBeNull();
});

test('an entry is not served past its lifetime, and a new generation empties the store', async () => {
  let now = 1_000;
  const cache = createCache({ ttlSeconds: 1, maxBytes: 1_000_000, redisUrl: null, initialGeneration: 0, now: () => now });
  await cache.set('a', answer(1));
  await cache.set('b', answer(2));
  expect(await cache.get('a')).not.toBeNull();
  cache.advance();
  expect(await cache.get('a')).toBeNull();
  await cache.set('b', answer(2));
  now += 999;
  expect(await cache.get('b')).not.toBeNull();
  now += 2;
  expect(await cache.get('b')).toBeNull();
});
