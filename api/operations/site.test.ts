import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { makeCategory, makeCompany, makeListing } from '../../test/builders.ts';
import { siteInfo } from '../../sql/queries/site.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      const c = await makeCompany(sql, { name: 'Acme', domain: 'acme.test' });
      await makeCategory(sql, { slug: 'tools', name: 'Tools' });
      await makeCategory(sql, { slug: 'misc', name: 'Misc' });
      for (const [slug, status] of [
        ['a', 'live'],
        ['b', 'live'],
        ['c', 'scheduled'],
        ['d', 'draft'],
      ]) {
        await makeListing(sql, { siteId, companyId: c.id, slug, domain: 'acme.test', status });
      }
    },
  });
});
afterAll(() => app.stop());

describe('get_site_info', () => {
  test('returns live counts and where docs, OpenAPI and MCP are', async () => {
    const { status, body } = await app.json('/site');
    expect(status).toBe(200);
    expect(body.counts).toEqual({ live_listings: 2, upcoming_listings: 1, categories: 2, founders: 0 });
    expect(body.urls.openapi).toBe(`${app.url}/api/v1/openapi.json`);
    expect(body.urls.mcp).toBe(`${app.url}/mcp`);
    expect(body.urls.docs).toBe(`${app.url}/docs`);
  });

  test('counts listings changed since the last refresh exactly (read from listing_counts and its pending moves)', async () => {
    const count = async (status: string) =>
      (await app.sql<{ n: number }[]>`select count(*)::int as n from listings where site_id = ${app.siteId} and status = ${status}`)[0]!.n;
    const c = await makeCompany(app.sql, { name: 'Later', domain: 'later.test' });
    await makeListing(app.sql, { siteId: app.siteId, companyId: c.id, slug: 'later', domain: 'later.test', status: 'live' });
    await app.sql`update listings set status = 'live' where site_id = ${app.siteId} and slug = 'c'`;
    await app.sql`update listings set status = 'scheduled' where site_id = ${app.siteId} and slug = 'd'`;
    const counts = await siteInfo(app.sql, app.siteId);
    expect(counts).toMatchObject({ live_listings: 4, upcoming_listings: 1 });
    expect(counts.live_listings).toBe(await count('live'));
    await app.sql`delete from listings where site_id = ${app.siteId} and slug = 'later'`;
    await app.sql`select refresh_directory_views()`;
    expect(await siteInfo(app.sql, app.siteId)).toMatchObject({ live_listings: await count('live'), upcoming_listings: await count('scheduled') });
  });

  test('rejects unknown query parameters with a problem naming them', async () => {
    const res = await app.get('/site?foo=1');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const p = await res.json();
    expect(p.errors[0]).toMatchObject({ field: '(root)', in: 'query' });
  });

  test('sends an ETag and answers 304 to a matching If-None-Match', async () => {
    const first = await app.get('/site');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get('cache-control')).toContain('public');
    const second = await app.get('/site', { headers: { 'if-none-match': etag } });
    expect(second.status).toBe(304);
  });

  test('unknown paths are 404 problems', async () => {
    const res = await app.get('/nope');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });
});

describe('query conversion', () => {
  test('integers must be written as integers: 1.5 and 1e1 are 400, not truncated', async () => {
    for (const bad of ['1.5', '1e1', ' 2', 'two']) {
      const res = await app.get(`/blog?per_page=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0]).toMatchObject({ field: 'per_page', in: 'query' });
    }
    expect((await app.get('/blog?per_page=3')).status).toBe(200);
  });

  test('booleans must be true or false', async () => {
    expect((await app.get('/categories?include_empty=yes')).status).toBe(400);
    expect((await app.get('/categories?include_empty=false')).status).toBe(200);
  });
});
