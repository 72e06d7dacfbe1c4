import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eventually } from '../../test/eventually.ts';
import { loadConfig } from '../../core/config.ts';
import { startEdge, type RunningEdge } from '../server.ts';
import { freePort, startTestApp, type TestApp } from '../../test/harness.ts';
import { testRedis } from '../../test/redis.ts';
import { makeCompany, makeListing } from '../../test/builders.ts';

const liveCount = async (base: string) => (await (await fetch(`${base}/api/v1/site`)).json()).counts.live_listings as number;

async function addLive(app: TestApp, slug: string) {
  const c = await makeCompany(app.sql, { name: slug, domain: `${slug}.test`, websiteUrl: 'https://x.test' });
  await makeListing(app.sql, { siteId: app.siteId, companyId: c.id, slug, url: 'https://x.test', domain: 'x.test' });
}

/** Resolves once the edge has heard the NOTIFY and moved to a new cache generation. */
async function waitUntil(check: () => Promise<boolean>) {
  expect(await eventually(check, (ok) => ok, { tries: 100, everyMs: 20 })).toBe(true);
}

describe('in-process cache', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.stop());

  test('serves a cached read until a write announces a new generation', async () => {
    expect(await liveCount(app.url)).toBe(0);
    await addLive(app, 'one'); // a write that does not announce itself: the cached read stands
    expect(await liveCount(app.url)).toBe(0);
    await app.sql`select directory_changed()`;
    await waitUntil(async () => (await liveCount(app.url)) === 1);
  });

  test('CACHE_TTL_SECONDS=0 turns the cache off', async () => {
    const off = await startTestApp({ env: { CACHE_TTL_SECONDS: '0' } });
    try {
      expect(await liveCount(off.url)).toBe(0);
      await addLive(off, 'two');
      expect(await liveCount(off.url)).toBe(1);
    } finally {
      await off.stop();
    }
  });
});

describe('Redis cache shared by two instances', () => {
  let redis: Awaited<ReturnType<typeof testRedis>>;
  let app: TestApp;
  let second: RunningEdge;
  beforeAll(async () => {
    redis = await testRedis();
    app = await startTestApp({ env: { REDIS_URL: redis.url } });
    const port = await freePort();
    second = await startEdge(
      loadConfig({ PORT: String(port), HOST: '127.0.0.1', SITE_URL: app.config.siteUrl, REDIS_URL: redis.url, LOG_LEVEL: 'silent' }),
      app.databaseUrl,
    );
  });
  afterAll(async () => {
    await second.stop();
    await app.stop();
    await redis.stop();
  });

  test('an entry cached by one instance is served by the other, and a write invalidates both', async () => {
    expect(await liveCount(app.url)).toBe(0); // cached in Redis by the first instance
    await addLive(app, 'three');
    expect(await liveCount(second.url)).toBe(0); // the second instance reads the shared entry
    await app.sql`select directory_changed()`;
    await waitUntil(async () => (await liveCount(app.url)) === 1 && (await liveCount(second.url)) === 1);
  });
});
