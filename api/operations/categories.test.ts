import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eventually } from '../../test/eventually.ts';
import type { Sql } from '../../sql/db.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { makeCategory, makeCompany, makeListing, makeUser, makeVote } from '../../test/builders.ts';

let app: TestApp;

async function addListing(
  sql: Sql,
  siteId: number,
  companyId: number,
  slug: string,
  status: string,
  primary: number | null,
  extras: number[] = [],
  opts: { joinRow?: boolean } = {},
) {
  // joinRow false: primary_category_id without its listing_categories row.
  const l = await makeListing(sql, {
    siteId,
    companyId,
    slug,
    name: 'Listing ' + slug,
    status,
    categoryId: opts.joinRow !== false ? primary : null,
    columns: { primary_category_id: primary },
  });
  for (const c of extras) await sql`insert into listing_categories (listing_id, category_id) values (${l.id}, ${c})`;
  return String(l.id);
}

async function vote(sql: Sql, listingId: string, n: number) {
  for (let i = 0; i < n; i++) {
    const u = await makeUser(sql, { email: `v${listingId}-${i}@example.test` });
    await makeVote(sql, listingId, u.id);
  }
}

beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      const [other] = await sql`insert into sites (key, name, url) values ('other', 'Other', 'https://other.test') returning id`;
      const co = await makeCompany(sql, { name: 'Acme', domain: 'acme.test' });
      const cat = async (slug: string, name: string, position: number, parent: number | null = null, extra: Record<string, unknown> = {}) =>
        (
          await makeCategory(sql, {
            slug,
            name,
            position,
            parentId: parent,
            columns: {
              description: (extra.description as string) ?? '',
              faqs: sql.json((extra.faqs ?? []) as never),
              attributes: sql.json((extra.attributes ?? []) as never),
            },
          })
        ).id;
      const design = await cat('design', 'Design', 0);
      const dev = await cat('dev', 'Developer Tools', 1, null, {
        description: 'Tools for developers.',
        faqs: [{ question: 'What is here?', answer: 'Developer tools.' }],
        attributes: [{ key: 'open_source', label: 'Open source' }],
      });
      const apis = await cat('apis', 'APIs', 1, dev);
      const ides = await cat('ides', 'IDEs', 2, dev);
      await cat('testing', 'Testing', 3, dev);
      const marketing = await cat('marketing', 'Marketing', 3);
      await cat('empty', 'Empty', 3); // same position as marketing: ordered by name
      const seo = await cat('seo', 'SEO', 0, marketing);

      const c = co.id;
      const l1 = await addListing(sql, siteId, c, 'l1', 'live', ides, [dev]); // in a subcategory and its parent: counts once for dev
      const l2 = await addListing(sql, siteId, c, 'l2', 'live', apis);
      await addListing(sql, siteId, c, 'l3', 'live', dev);
      await addListing(sql, siteId, c, 'l4', 'scheduled', dev); // not live
      await addListing(sql, other.id, c, 'l5', 'live', dev); // another site
      await addListing(sql, siteId, c, 'l6', 'live', seo);
      const l7 = await addListing(sql, siteId, c, 'l7', 'live', design, [apis]); // extra category counts
      await addListing(sql, siteId, c, 'l8', 'live', design, [], { joinRow: false }); // primary column only
      await vote(sql, l2, 3);
      await vote(sql, l7, 2);
      await vote(sql, l1, 1);
    },
  });
}, 60_000); // a loaded machine can take a while to boot the test database
afterAll(() => app?.stop(), 60_000);

const strip = (n: any) => ({ slug: n.slug, count: n.count, direct: n.direct_count, subs: n.subcategories?.map(strip) });

describe('list_categories', () => {
  test('returns the two-level tree in position then name order with live counts', async () => {
    const { status, body } = await app.json('/categories');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['items']);
    expect(body.items.map(strip)).toEqual([
      { slug: 'design', count: 2, direct: 2, subs: [] },
      {
        slug: 'dev',
        count: 4,
        direct: 2,
        subs: [
          { slug: 'apis', count: 2, direct: 2, subs: undefined },
          { slug: 'ides', count: 1, direct: 1, subs: undefined },
          { slug: 'testing', count: 0, direct: 0, subs: undefined },
        ],
      },
      { slug: 'empty', count: 0, direct: 0, subs: [] },
      { slug: 'marketing', count: 1, direct: 0, subs: [{ slug: 'seo', count: 1, direct: 1, subs: undefined }] },
    ]);
    const dev = body.items[1];
    expect(dev).toMatchObject({ name: 'Developer Tools', description: 'Tools for developers.' });
    expect(dev.subcategories[0]).toEqual({ slug: 'apis', name: 'APIs', description: '', count: 2, direct_count: 2 });
  });

  test('include_empty=true is the default', async () => {
    const a = await app.json('/categories');
    const b = await app.json('/categories?include_empty=true');
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
  });

  test('include_empty=false drops empty categories but keeps a parent whose child has listings', async () => {
    const { status, body } = await app.json('/categories?include_empty=false');
    expect(status).toBe(200);
    expect(body.items.map(strip)).toEqual([
      { slug: 'design', count: 2, direct: 2, subs: [] },
      {
        slug: 'dev',
        count: 4,
        direct: 2,
        subs: [
          { slug: 'apis', count: 2, direct: 2, subs: undefined },
          { slug: 'ides', count: 1, direct: 1, subs: undefined },
        ],
      },
      { slug: 'marketing', count: 1, direct: 0, subs: [{ slug: 'seo', count: 1, direct: 1, subs: undefined }] },
    ]);
  });

  test('a listing that goes live changes the counts at the next refresh', async () => {
    await app.sql`update listings set status = 'live' where slug = 'l4' and site_id = ${app.siteId}`;
    try {
      await app.sql`select refresh_directory_views()`;
      const dev = await eventually(
        async () => (await app.json('/categories')).body.items.find((n: any) => n.slug === 'dev'),
        (d) => d.count === 5,
      );
      expect(dev.count).toBe(5);
      expect(dev.direct_count).toBe(3);
    } finally {
      await app.sql`update listings set status = 'scheduled' where slug = 'l4' and site_id = ${app.siteId}`;
      await app.sql`select refresh_directory_views()`;
      // The next test reads the counts as they were: wait for the edge to drop what it cached.
      await eventually(
        async () => (await app.json('/categories')).body.items.find((n: any) => n.slug === 'dev').count,
        (n) => n === 4,
      );
    }
  });

  test('rejects a non-boolean include_empty and unknown parameters', async () => {
    const bad = await app.json('/categories?include_empty=maybe');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'include_empty', in: 'query' });
    expect((await app.get('/categories?page=1')).status).toBe(400);
  });
});

describe('get_category', () => {
  test('returns description, FAQs, attributes, no parent, subcategories and listings most voted first', async () => {
    const { status, body } = await app.json('/categories/dev');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      slug: 'dev',
      name: 'Developer Tools',
      description: 'Tools for developers.',
      count: 4,
      direct_count: 2,
      faqs: [{ question: 'What is here?', answer: 'Developer tools.' }],
      attributes: [{ key: 'open_source', label: 'Open source' }],
      parent: null,
      subcategories: [
        { slug: 'apis', name: 'APIs', count: 2 },
        { slug: 'ides', name: 'IDEs', count: 1 },
        { slug: 'testing', name: 'Testing', count: 0 },
      ],
    });
    // l4 (scheduled) and l5 (other site) never show; l7 is here through its extra category apis
    expect(body.listings.items.map((l: any) => [l.slug, l.votes])).toEqual([
      ['l2', 3],
      ['l7', 2],
      ['l1', 1],
      ['l3', 0],
    ]);
    expect(body.listings).toMatchObject({ page: 1, per_page: 20, total: 4, has_more: false });
    expect(body.listings.items[0]).toMatchObject({ name: 'Listing l2', url: 'https://l2.test', status: 'live', category: { slug: 'apis', name: 'APIs' } });
  });

  test('a subcategory names its parent and lists only its own listings', async () => {
    const { status, body } = await app.json('/categories/ides');
    expect(status).toBe(200);
    expect(body.parent).toEqual({ slug: 'dev', name: 'Developer Tools' });
    expect(body.subcategories).toEqual([]);
    expect(body.listings.items.map((l: any) => l.slug)).toEqual(['l1']);
  });

  test('pages through listings', async () => {
    const p1 = await app.json('/categories/dev?per_page=2');
    expect(p1.body.listings.items.map((l: any) => l.slug)).toEqual(['l2', 'l7']);
    expect(p1.body.listings).toMatchObject({ page: 1, per_page: 2, total: 4, has_more: true });
    const p2 = await app.json('/categories/dev?per_page=2&page=2');
    expect(p2.body.listings.items.map((l: any) => l.slug)).toEqual(['l1', 'l3']);
    expect(p2.body.listings.has_more).toBe(false);
    const p3 = await app.json('/categories/dev?per_page=2&page=3');
    expect(p3.body.listings).toMatchObject({ items: [], total: 4, has_more: false });
    const max = await app.json('/categories/dev?per_page=100&page=1000');
    expect(max.status).toBe(200);
    expect(max.body.listings.items).toEqual([]);
  });

  test('rejects paging out of bounds', async () => {
    for (const q of ['page=0', 'page=1001', 'per_page=0', 'per_page=101', 'page=x']) {
      const res = await app.json(`/categories/dev?${q}`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe(q.split('=')[0]);
    }
  });

  test('404 for an unknown or malformed slug', async () => {
    for (const slug of ['nope', 'Bad_Slug', '-dev']) {
      const res = await app.json(`/categories/${slug}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
  });
});
