import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Sql } from '../../sql/db.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { makeCategory, makeListing, makeUsers } from '../../test/builders.ts';

let app: TestApp;

interface L {
  slug: string;
  name: string;
  status?: string;
  site?: number;
  category?: number;
  extras?: number[];
  domain?: string;
  tagline?: string;
  description?: string;
  keywords?: string[];
  country?: string;
  pricing?: string;
  stage?: string;
  launchedDaysAgo?: number;
  launchWeek?: string;
  votes?: number[];
  views?: number;
  follows?: number;
}

let users: number[] = [];
async function listing(sql: Sql, siteId: number, l: L) {
  const domain = l.domain ?? `${l.slug}.test`;
  const [when] = await sql<{ launched_at: Date | null; launch_week: string }[]>`
    select ${l.launchedDaysAgo === undefined ? sql`null::timestamptz` : sql`now() - make_interval(days => ${l.launchedDaysAgo})`} as launched_at,
           ${l.launchWeek ? sql`${l.launchWeek}::date` : sql`date_trunc('week', now() - make_interval(days => ${l.launchedDaysAgo ?? 0}))::date`}::text as launch_week`;
  const row = await makeListing(sql, {
    siteId: l.site ?? siteId,
    slug: l.slug,
    name: l.name,
    domain,
    status: l.status,
    categoryId: l.category ?? null,
    columns: {
      tagline: l.tagline ?? null,
      description: l.description ?? null,
      keywords: l.keywords ?? [],
      country: l.country ?? null,
      pricing_model: l.pricing ?? null,
      stage: l.stage ?? null,
      launched_at: when.launched_at,
      launch_week: when.launch_week,
    },
  });
  for (const c of l.extras ?? []) await sql`insert into listing_categories (listing_id, category_id) values (${row.id}, ${c})`;
  // votes: one entry per vote, the number of days ago it was cast
  for (const [i, days] of (l.votes ?? []).entries()) {
    await sql`insert into votes (listing_id, user_id, created_at) values (${row.id}, ${users[i]}, now() - make_interval(days => ${days}))`;
  }
  if (l.views) await sql`insert into listing_views (listing_id, day, views) values (${row.id}, current_date, ${l.views})`;
  for (let i = 0; i < (l.follows ?? 0); i++) await sql`insert into follows (listing_id, user_id) values (${row.id}, ${users[i]})`;
}

beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      users = (await makeUsers(sql, 20)).map((r) => Number(r.id));
      const [other] = await sql`insert into sites (key, name, url) values ('other', 'Other', 'https://other.test') returning id`;
      const cat = async (slug: string, parent: number | null = null) => (await makeCategory(sql, { slug, parentId: parent })).id;
      const dev = await cat('dev-tools');
      const review = await cat('code-review', dev);
      const marketing = await cat('marketing');
      const email = await cat('email', marketing);
      const productivity = await cat('productivity');
      const nextWeek = (await sql`select (date_trunc('week', now()) + interval '14 days')::date::text as d`)[0].d;
      const pastWeek = (await sql`select (date_trunc('week', now()) - interval '21 days')::date::text as d`)[0].d;

      await listing(sql, siteId, {
        slug: 'notion-clone',
        name: 'Notion Clone',
        tagline: 'Docs and wikis for teams',
        category: productivity,
        description: 'A collaborative workspace for notes.',
        country: 'US',
        pricing: 'Freemium',
        stage: 'beta',
        domain: 'notionclone.io',
        launchedDaysAgo: 10,
        votes: [20, 21, 22, 23, 24],
        views: 50,
        follows: 2,
      });
      await listing(sql, siteId, {
        slug: 'invoicer',
        name: 'Invoicer',
        tagline: 'Invoices that pay themselves',
        category: productivity,
        description: 'Bookkeeping with automatic reconciliation of bank statements.',
        keywords: ['ledger', 'tax'],
        country: 'DE',
        pricing: 'paid',
        stage: 'launched',
        domain: 'app.invoicer.com',
        launchedDaysAgo: 3,
        votes: [5, 6, 7],
        views: 500,
        follows: 1,
      });
      await listing(sql, siteId, {
        slug: 'reviewbot',
        name: 'ReviewBot',
        tagline: 'Automated code review',
        category: review,
        description: 'Reviews pull requests.',
        country: 'GB',
        pricing: 'free',
        stage: 'beta',
        launchedDaysAgo: 30,
        votes: [40, 40, 40, 40, 40, 40, 40, 40],
        views: 9000,
        follows: 0,
      });
      await listing(sql, siteId, {
        slug: 'mailer',
        name: 'Mailer',
        tagline: 'Email campaigns',
        category: marketing,
        extras: [email, dev],
        description: 'Newsletters and campaigns.',
        domain: 'www.mailer.dev',
        pricing: 'FREEMIUM',
        launchedDaysAgo: 1,
        votes: [1],
        views: 5,
        follows: 9,
      });
      await listing(sql, siteId, {
        slug: 'mailer-plus',
        name: 'Mailer Plus',
        tagline: 'More email',
        category: email,
        description: 'Campaigns for mailer fans.',
        domain: 'mailerplus.dev',
        launchedDaysAgo: 2,
        votes: [],
        views: 0,
      });
      await listing(sql, siteId, {
        slug: 'importer',
        name: 'Importer',
        tagline: 'Move your pages',
        category: productivity,
        description: 'Imports pages from notion and confluence.',
        launchedDaysAgo: 5,
        votes: [3, 3],
      });
      // trending: few fresh votes beat many old ones
      await listing(sql, siteId, {
        slug: 'oldie',
        name: 'Oldie',
        category: productivity,
        launchedDaysAgo: 90,
        votes: [60, 61, 62, 63, 64, 65, 66, 67, 68, 69],
      });
      await listing(sql, siteId, { slug: 'hotnew', name: 'Hotnew', category: productivity, launchedDaysAgo: 0, votes: [0, 0, 0, 0] });
      // not live, or not ours: never found by live searches
      await listing(sql, siteId, { slug: 'upcoming-one', name: 'Upcoming Notion Tool', status: 'scheduled', launchWeek: nextWeek, category: review });
      await listing(sql, siteId, { slug: 'overdue', name: 'Overdue Notion Tool', status: 'scheduled', launchWeek: pastWeek, category: review });
      // relevance tiers among upcoming listings: exact name, name prefix, tagline (votes break the tie), description only
      const soon = { status: 'scheduled', launchWeek: nextWeek, category: review };
      await listing(sql, siteId, { slug: 'quasar', name: 'Quasar', ...soon });
      await listing(sql, siteId, { slug: 'quasar-labs', name: 'Quasar Labs', ...soon });
      await listing(sql, siteId, { slug: 'nebula-kit', name: 'Nebula Kit', tagline: 'Quasar tooling', votes: [1, 1], ...soon });
      await listing(sql, siteId, { slug: 'pulsar-kit', name: 'Pulsar Kit', tagline: 'Quasar tooling', votes: [1, 1, 1, 1, 1], ...soon });
      await listing(sql, siteId, {
        slug: 'comet-desk',
        name: 'Comet Desk',
        tagline: 'Desk for comets',
        description: 'Works with quasar.',
        votes: [1, 1, 1, 1, 1, 1, 1, 1, 1],
        ...soon,
      });
      // similar to "quasar" as a whole (trigrams) without sharing its words
      await listing(sql, siteId, { slug: 'qua-sar', name: 'Qua Sar', ...soon });
      await listing(sql, siteId, { slug: 'notion-draft', name: 'Notion Draft', status: 'draft', category: productivity });
      await listing(sql, siteId, { slug: 'notion-elsewhere', name: 'Notion Elsewhere', site: other.id, category: productivity, launchedDaysAgo: 1 });
    },
  });
}, 60_000);
afterAll(() => app?.stop(), 60_000);

const search = async (qs: string) => {
  const { status, body } = await app.json(`/listings${qs ? '?' + qs : ''}`);
  expect(status).toBe(200);
  return body;
};
const slugs = async (qs: string) => (await search(qs)).items.map((i: any) => i.slug);
const ALL_LIVE = ['notion-clone', 'invoicer', 'reviewbot', 'mailer', 'mailer-plus', 'importer', 'oldie', 'hotnew'];
const UPCOMING = ['upcoming-one', 'quasar', 'quasar-labs', 'nebula-kit', 'pulsar-kit', 'comet-desk', 'qua-sar'];

describe('search_listings text', () => {
  test('finds a name with two letters swapped', async () => {
    expect(await slugs('q=notoin')).toContain('notion-clone');
  });

  test('finds description and keyword words with one typo', async () => {
    expect(await slugs('q=reconcilation')).toEqual(['invoicer']);
    expect(await slugs('q=bookeeping')).toEqual(['invoicer']);
    expect(await slugs('q=ledgr')).toEqual(['invoicer']);
  });

  test('needs every word and searches the tagline', async () => {
    expect(await slugs('q=code%20review')).toEqual(['reviewbot']);
    expect(await slugs('q=pull%20newsletters')).toEqual([]); // one in each of two listings
  });

  test('ranks names starting with q before text matches, and the exact name first', async () => {
    const notion = await slugs('q=notion');
    expect(notion).toEqual(['notion-clone', 'importer']); // draft, scheduled and other-site listings never show
    const mailer = await slugs('q=mailer');
    expect(mailer[0]).toBe('mailer');
    expect(mailer[1]).toBe('mailer-plus');
  });

  test('words from 3 characters match as prefixes; shorter ones and punctuation do not', async () => {
    expect(await slugs('q=notio')).toEqual(['notion-clone', 'importer']);
    expect(await slugs('q=no')).toEqual([]);
    expect(await search('q=%21%21%21')).toMatchObject({ items: [], total: 0 });
  });

  test('relevance: exact name, name prefix, then text rank (votes break ties), description-only matches last', async () => {
    const order = ['quasar', 'quasar-labs', 'pulsar-kit', 'nebula-kit', 'comet-desk'];
    expect(await search('status=upcoming&q=quasar')).toMatchObject({ total: 5, has_more: false });
    expect(await slugs('status=upcoming&q=quasar')).toEqual(order); // qua-sar is similar as a whole, but words matched
    // one letter missing: the same matches; the name that is q corrected comes before a longer one sharing its word
    expect(await slugs('status=upcoming&q=qasar')).toEqual(['quasar', 'quasar-labs', 'pulsar-kit', 'nebula-kit', 'comet-desk']);
    // a page boundary inside the tie between the two taglines: votes still decide it
    expect(await search('status=upcoming&q=quasar&per_page=3')).toMatchObject({ total: 5, has_more: true });
    expect(await slugs('status=upcoming&q=quasar&per_page=3')).toEqual(order.slice(0, 3));
    expect(await slugs('status=upcoming&q=quasar&per_page=3&page=2')).toEqual(order.slice(3));
    expect(await slugs('status=upcoming&q=quasar&per_page=1&page=4')).toEqual([order[3]]);
    expect(await slugs('status=upcoming&q=quasar&page=2')).toEqual([]);
  });

  test('when no words match, names similar to q as a whole match, counted alike', async () => {
    expect(await search('q=notionclone')).toMatchObject({ total: 1, items: [{ slug: 'notion-clone' }] });
    expect(await search('q=notionclone&country=DE')).toMatchObject({ total: 0, items: [] });
    expect(await search('status=upcoming&q=quasarr%20labz')).toMatchObject({ total: 1, items: [{ slug: 'quasar-labs' }] });
    expect(await search('q=zqxjvw')).toMatchObject({ total: 0, items: [] }); // similar to nothing
    // "mailer" is similar too, less so: relevance orders by similarity, the other sorts as usual
    expect(await slugs('q=mailerplus')).toEqual(['mailer-plus', 'mailer']);
    expect(await slugs('q=mailerplus&sort=newest')).toEqual(['mailer', 'mailer-plus']);
    expect(await search('q=mailerplus&sort=most_followed&per_page=1')).toMatchObject({ total: 2, has_more: true, items: [{ slug: 'mailer' }] });
  });

  test('a blank q is no q; q over 200 characters is a 400 naming q', async () => {
    expect((await search('q=%20%20')).total).toBe(ALL_LIVE.length);
    expect((await app.json(`/listings?q=${'a'.repeat(200)}`)).status).toBe(200);
    const { status, body } = await app.json(`/listings?q=${'a'.repeat(201)}`);
    expect(status).toBe(400);
    expect(body.errors.map((e: any) => e.field)).toEqual(['q']);
  });
});

describe('search_listings filters', () => {
  test('defaults: live listings, page 1 of 20', async () => {
    const body = await search('');
    expect(body).toMatchObject({ page: 1, per_page: 20, total: ALL_LIVE.length, has_more: false });
    expect(body.items.map((i: any) => i.slug).sort()).toEqual([...ALL_LIVE].sort());
    expect(body.items.every((i: any) => i.status === 'live')).toBe(true);
    expect(body.items[0]).toMatchObject({ name: expect.any(String), url: expect.any(String), votes: expect.any(Number) });
  });

  test('category includes its subcategories and extra categories', async () => {
    expect((await slugs('category=dev-tools')).sort()).toEqual(['mailer', 'reviewbot']); // reviewbot via code-review, mailer via extra
    expect(await slugs('category=code-review')).toEqual(['reviewbot']);
    expect((await slugs('category=marketing')).sort()).toEqual(['mailer', 'mailer-plus']);
    expect((await slugs('category=email')).sort()).toEqual(['mailer', 'mailer-plus']);
  });

  test('with q too, category includes its subcategories and extra categories (checked per match)', async () => {
    expect(await slugs('q=mailer&category=dev-tools')).toEqual(['mailer']); // by its extra tag
    expect((await slugs('q=mailer&category=marketing')).sort()).toEqual(['mailer', 'mailer-plus']); // mailer-plus via email
    expect((await slugs('q=mailer&category=email')).sort()).toEqual(['mailer', 'mailer-plus']); // mailer by its extra tag
    expect(await slugs('q=mailer&category=code-review')).toEqual([]);
    expect(await slugs('q=reviewbot&category=dev-tools')).toEqual(['reviewbot']); // its primary is a subcategory
    // Matched by the name as a whole (no word matches), then filtered the same way.
    expect((await slugs('q=mailerplus&category=email')).sort()).toEqual(['mailer', 'mailer-plus']);
    expect(await slugs('q=mailerplus&category=code-review')).toEqual([]);
    expect(await slugs('q=mailerplus&category=productivity')).toEqual([]);
  });

  test('an unknown category matches nothing; a malformed one is a 400', async () => {
    expect(await search('category=no-such-thing')).toMatchObject({ items: [], total: 0 });
    const { status, body } = await app.json('/listings?category=Not_A_Slug');
    expect(status).toBe(400);
    expect(body.errors[0].field).toBe('category');
  });

  test('stage, country (any case) and pricing model (case-insensitive)', async () => {
    expect((await slugs('stage=beta')).sort()).toEqual(['notion-clone', 'reviewbot']);
    expect(await slugs('country=de')).toEqual(['invoicer']);
    expect(await slugs('country=GB')).toEqual(['reviewbot']);
    expect((await slugs('pricing_model=freemium')).sort()).toEqual(['mailer', 'notion-clone']);
    expect((await app.json('/listings?country=DEU')).status).toBe(400);
    expect((await app.json('/listings?country=d1')).status).toBe(400);
    expect((await app.json(`/listings?pricing_model=${'x'.repeat(41)}`)).status).toBe(400);
    expect((await app.json(`/listings?pricing_model=${'x'.repeat(40)}`)).status).toBe(200);
  });

  test('domain matches the domain or a subdomain, ignoring www. and case', async () => {
    expect(await slugs('domain=invoicer.com')).toEqual(['invoicer']);
    expect(await slugs('domain=APP.Invoicer.com')).toEqual(['invoicer']);
    expect(await slugs('domain=mailer.dev')).toEqual(['mailer']);
    expect(await slugs('domain=www.notionclone.io')).toEqual(['notion-clone']);
    expect(await slugs('domain=https%3A%2F%2Fnotionclone.io%2Fpricing')).toEqual(['notion-clone']);
    expect(await slugs('domain=ailer.dev')).toEqual([]);
    expect((await app.json(`/listings?domain=${'a'.repeat(254)}`)).status).toBe(400);
  });

  test('filters combine with q', async () => {
    expect(await slugs('q=notion&country=US')).toEqual(['notion-clone']);
    expect(await slugs('q=notion&country=DE')).toEqual([]);
  });

  test('status upcoming lists scheduled listings whose week is not past', async () => {
    const body = await search('status=upcoming');
    expect(body.items.map((i: any) => i.slug).sort()).toEqual([...UPCOMING].sort()); // not 'overdue'
    expect(body.total).toBe(UPCOMING.length);
    expect(body.items.every((i: any) => i.status === 'scheduled' && i.launched_at === null)).toBe(true);
    expect(await slugs('status=upcoming&q=notion')).toEqual(['upcoming-one']);
    expect((await app.json('/listings?status=draft')).status).toBe(400);
  });
});

describe('search_listings sorting', () => {
  const nonIncreasing = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1] >= x);

  test('votes, most_viewed and most_followed sort by that counter, highest first', async () => {
    const byVotes = (await search('sort=votes')).items;
    expect(byVotes.map((i: any) => i.votes)).toEqual([10, 8, 5, 4, 3, 2, 1, 0]);
    const byViews = (await search('sort=most_viewed')).items;
    expect(byViews.slice(0, 3).map((i: any) => i.slug)).toEqual(['reviewbot', 'invoicer', 'notion-clone']);
    expect(nonIncreasing(byViews.map((i: any) => i.views))).toBe(true);
    const byFollows = (await search('sort=most_followed')).items;
    expect(byFollows.slice(0, 3).map((i: any) => i.slug)).toEqual(['mailer', 'notion-clone', 'invoicer']);
    expect(nonIncreasing(byFollows.map((i: any) => i.follows))).toBe(true);
  });

  test('trending favours fresh votes', async () => {
    const items = (await search('sort=trending')).items.map((i: any) => i.slug);
    expect(items.indexOf('hotnew')).toBeLessThan(items.indexOf('oldie'));
    const scores = await app.sql`select l.slug, trending_now(s.trend_log) as trending from listing_stats s join listings l on l.id = s.listing_id`;
    const score = new Map(scores.map((r) => [r.slug as string, Number(r.trending)]));
    expect(nonIncreasing(items.map((s: string) => score.get(s)!))).toBe(true);
  });

  test('newest is most recently launched first', async () => {
    expect(await slugs('sort=newest')).toEqual(['hotnew', 'mailer', 'mailer-plus', 'invoicer', 'importer', 'notion-clone', 'reviewbot', 'oldie']);
  });

  test('relevance without q is most votes, then newest', async () => {
    expect(await slugs('')).toEqual(await slugs('sort=votes'));
    expect((await slugs('sort=relevance')).slice(0, 3)).toEqual(['oldie', 'reviewbot', 'notion-clone']);
    // with q, the other sorts still order the matches by their counter
    expect(await slugs('q=campaigns&sort=votes')).toEqual(['mailer', 'mailer-plus']);
    expect(await slugs('q=campaigns&sort=newest')).toEqual(['mailer', 'mailer-plus']);
  });

  test('every sort value is accepted with q; an unknown one is a 400 naming sort', async () => {
    for (const sort of ['relevance', 'newest', 'votes', 'trending', 'most_viewed', 'most_followed']) {
      expect((await slugs(`q=notion&sort=${sort}`)).sort()).toEqual(['importer', 'notion-clone']);
    }
    const { status, body } = await app.json('/listings?sort=popular');
    expect(status).toBe(400);
    expect(body.errors[0].field).toBe('sort');
  });
});

describe('search_listings paging', () => {
  test('pages through the same order', async () => {
    const all = await slugs('sort=votes');
    const p2 = await search('sort=votes&page=2&per_page=3');
    expect(p2).toMatchObject({ page: 2, per_page: 3, total: 8, has_more: true });
    expect(p2.items.map((i: any) => i.slug)).toEqual(all.slice(3, 6));
    const p3 = await search('sort=votes&page=3&per_page=3');
    expect(p3).toMatchObject({ has_more: false });
    expect(p3.items.map((i: any) => i.slug)).toEqual(all.slice(6));
    expect(await search('page=1000')).toMatchObject({ items: [], total: 8, has_more: false });
    expect((await search('per_page=100')).items.length).toBe(8);
  });

  test('out-of-range page and per_page are 400s naming the field', async () => {
    for (const [qs, field] of [
      ['page=0', 'page'],
      ['page=1001', 'page'],
      ['per_page=0', 'per_page'],
      ['per_page=101', 'per_page'],
      ['page=x', 'page'],
    ]) {
      const res = await app.get(`/listings?${qs}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect((await res.json()).errors.map((e: any) => e.field)).toEqual([field]);
    }
    expect((await app.json('/listings?nope=1')).status).toBe(400);
  });
});
