import { afterAll, beforeAll, expect, test } from 'bun:test';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { makeApiKey, makeListing } from '../../test/builders.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';

// a person's keys and grants share one budget; badge images spend the address's
// anonymous budget, and unknown slugs are remembered instead of queried each time.

let app: TestApp;
let slug = '';
beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    env: { RATE_LIMIT_AUTHENTICATED_READS: '3', RATE_LIMIT_ANONYMOUS_READS: '4', CACHE_TTL_SECONDS: '600' },
    prepare: async (sql, siteId) => {
      slug = (await makeListing(sql, { siteId })).slug;
    },
  });
});
afterAll(() => app.stop());

test('more API keys of one person do not multiply their budget', async () => {
  const u = await findOrCreateUser(app.sql, 'budget@example.com');
  const keys = [await makeApiKey(app.sql, u, ['account:read'], 'a'), await makeApiKey(app.sql, u, ['account:read'], 'b')];
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await app.get(`${app.api}/categories`, { headers: { authorization: `Bearer ${keys[i % 2]}` } });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  expect(statuses).toEqual([200, 200, 200, 429]);
  // Another person keeps their own budget.
  const other = await makeApiKey(app.sql, await findOrCreateUser(app.sql, 'other-budget@example.com'), ['account:read']);
  const res = await app.get(`${app.api}/categories`, { headers: { authorization: `Bearer ${other}` } });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
});

test('badge images are rate limited per address; an unknown slug is answered from the negative cache', async () => {
  const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
  // The edge trusts no proxy in tests: every request here comes from 127.0.0.1, so it has 4 reads.
  const first = await app.get(`${app.url}/badges/${slug}/listed.svg`, from('192.0.2.1'));
  await first.arrayBuffer();
  expect(first.status).toBe(200);
  expect(first.headers.get('ratelimit-limit') ?? first.headers.get('ratelimit-policy') ?? first.headers.get('ratelimit')).not.toBeNull();
  const unknown = await app.get(`${app.url}/badges/not-yet-listed/listed.svg`);
  await unknown.arrayBuffer();
  expect(unknown.status).toBe(404);
  // The listing appears without a write through the edge (no cache generation bump): the slug is
  // still remembered as unknown, which shows the database was not asked again.
  await makeListing(app.sql, { siteId: app.siteId, slug: 'not-yet-listed' });
  const again = await app.get(`${app.url}/badges/not-yet-listed/listed.svg`);
  await again.arrayBuffer();
  expect(again.status).toBe(404);
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await app.get(`${app.url}/badges/${slug}/listed.svg`);
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  expect(statuses).toEqual([200, 429, 429]);
});
