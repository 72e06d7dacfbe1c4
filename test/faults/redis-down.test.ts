import { afterAll, beforeAll, expect, test } from 'bun:test';
import Redis from 'ioredis';
import { startTestApp, type TestApp } from '../harness.ts';
import { testRedis, type TestRedis } from '../redis.ts';
import { fmt, load, mcpCall } from './load.ts';

// Redis: with REDIS_URL set and the Redis killed under load, the read cache and
// the rate limits fall back to in-process within one request's budget, a breaker stops trying for a
// while, and the edge uses Redis again once it is back. REST and MCP both.
let redis: TestRedis;
let app: TestApp;
beforeAll(async () => {
  redis = await testRedis({ private: true }); // this test kills it
  app = await startTestApp({ env: { REDIS_URL: redis.url, REDIS_BREAKER_SECONDS: '2' } });
});
afterAll(async () => {
  await app?.stop();
  await redis?.stop();
});

const mixed = (i: number) => (i % 2 === 0 ? fetch(`${app.api}/${i % 4 === 0 ? 'site' : 'categories'}`) : mcpCall(app.url, 'list_categories', {}, i));

async function cacheKeys(): Promise<number> {
  const r = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await r.connect();
    return (await r.keys('dir:cache:*')).length;
  } finally {
    r.disconnect();
  }
}

test('Redis killed under load: REST and MCP stay 2xx and fast; Redis is used again once it is back', async () => {
  const before = await load({ ms: 2000, clients: 8, request: mixed });
  console.log(fmt('redis up', before));
  expect(before.statuses[200]).toBe(before.count);
  expect(await cacheKeys()).toBeGreaterThan(0);

  await redis.kill!();
  const t0 = performance.now();
  const down = await load({ ms: 4000, clients: 8, request: mixed, timeoutMs: 10_000 });
  console.log(fmt('redis killed', down));
  expect(down.statuses[200]).toBe(down.count); // every answer 2xx
  expect(down.max).toBeLessThan(1500); // no request waits on the dead Redis (generous bound)
  expect(down.count).toBeGreaterThan(before.count / 20); // throughput does not collapse
  // The outage shows in /readyz, which still answers 200: the edge serves from in-process state.
  const ready = await fetch(`${app.url}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toMatchObject({ ready: true, degraded: true, checks: { redis: 'down' } });

  await redis.restart!();
  expect(await cacheKeys()).toBe(0); // a fresh, empty Redis
  // Within a breaker period or two the edge writes cache entries to Redis again.
  const back = performance.now();
  let keys = 0;
  for (let i = 0; i < 100 && keys === 0; i++) {
    await load({ ms: 200, clients: 2, request: mixed });
    keys = await cacheKeys();
  }
  console.log(
    `redis back: cache entries written again after ${Math.round(performance.now() - back)} ms (${Math.round(performance.now() - t0)} ms after the kill)`,
  );
  expect(keys).toBeGreaterThan(0);
  const after = await load({ ms: 2000, clients: 8, request: mixed });
  console.log(fmt('redis restarted', after));
  expect(after.statuses[200]).toBe(after.count);
}, 120_000);

test('a hung Redis (SIGSTOP): each request waits at most one command time cap, then the breaker skips Redis', async () => {
  redis.pause!();
  try {
    const hung = await load({ ms: 3000, clients: 8, request: mixed, timeoutMs: 10_000 });
    console.log(fmt('redis hung', hung));
    expect(hung.statuses[200]).toBe(hung.count);
    expect(hung.max).toBeLessThan(1500); // REDIS_COMMAND_TIMEOUT_MS is 250 by default
  } finally {
    redis.resume!();
  }
  const after = await load({ ms: 1000, clients: 4, request: mixed });
  expect(after.statuses[200]).toBe(after.count);
}, 60_000);
