import { afterAll, beforeAll, expect, test } from 'bun:test';
import { freshDatabase } from '../../test/db.ts';
import { makeCategory, makeUsers } from '../../test/builders.ts';
import type { Sql } from '../db.ts';
import { ensureSite } from '../site.ts';
import { type SearchFilters, type SearchSort, searchListingIds } from './listings.ts';

// Lists without q reach their page one of two ways: walking the sort's order and keeping the
// matches, or reading the matches and sorting them. The statement counts the matches first and
// walks only when they are many (a filter matching few listings made the walk read the whole
// directory). Either way the page must be the one the documented order gives, and total exact,
// for listings changed since the last refresh too (a live category's matches come from
// category_members for the others).

let db: Awaited<ReturnType<typeof freshDatabase>>;
const countedAtRefresh: Record<string, number> = {};
let siteId: number;
const LIVE = 300;

beforeAll(async () => {
  db = await freshDatabase();
  siteId = (await ensureSite(db.sql, 'main', 'http://localhost')).id;
  const cat = await makeCategory(db.sql, { slug: 'tools' });
  const ai = await makeCategory(db.sql, { slug: 'tools-ai', parentId: cat.id });
  const games = await makeCategory(db.sql, { slug: 'games' });
  const users = (await makeUsers(db.sql, 6)).map((u) => Number(u.id));
  // 300 live listings: two thirds freemium, three enterprise (rare), the rest paid; launch times
  // repeat so ids break ties. 20 upcoming (next week) and 5 overdue (a past week), never shown.
  await db.sql`
    with c as (insert into companies (name, domain, website_url)
               select 'Co ' || i, 'co' || i || '.test', 'https://co' || i || '.test' from generate_series(1, ${LIVE + 25}) i
               returning id, domain)
    insert into listings (site_id, company_id, slug, name, url, domain, status, launched_at, launch_week, primary_category_id, pricing_model, country, stage)
    select ${siteId}, c.id, 'l-' || n, 'Item ' || n, 'https://' || c.domain, c.domain,
           case when n <= ${LIVE} then 'live' else 'scheduled' end,
           case when n <= ${LIVE} then timestamptz '2026-01-01' + (n % 7) * interval '1 day' end,
           case when n <= ${LIVE + 20} then date_trunc('week', now() at time zone 'utc')::date + 7 else date '2025-12-29' end,
           case when n % 4 = 0 then ${games.id}::int else ${cat.id}::int end,
           case when n % 100 = 0 then 'Enterprise' when n % 3 = 0 then 'paid' else 'freemium' end,
           case when n % 50 = 0 then 'NZ' else 'US' end,
           case when n % 5 = 0 then 'growing' else 'launched' end
    from c cross join lateral (select substring(c.domain from 'co(\\d+)')::int as n) x`;
  // Tags: every fourth listing's primary category (as the API writes it), and every eighth (a game)
  // tagged with the subcategory tools-ai too, so the tools filter finds it by its tag alone.
  await db.sql`
    insert into listing_categories (listing_id, category_id, is_primary)
    select id, primary_category_id, n % 8 <> 0 from listings cross join lateral (select substring(slug from 3)::int as n) x
    where site_id = ${siteId} and n % 4 = 0
    union all
    select id, ${ai.id}, n % 8 = 0 from listings cross join lateral (select substring(slug from 3)::int as n) x
    where site_id = ${siteId} and n % 8 = 0`;
  // Votes 0 to 5 and follows 0 to 3 per listing, many equal, upcoming ones too; views on some days.
  await db.sql`
    insert into votes (listing_id, user_id)
    select l.id, u from listings l cross join unnest(${users}::bigint[]) with ordinality as v(u, k)
    where l.site_id = ${siteId} and k <= (l.id * 7919) % 6`;
  await db.sql`
    insert into follows (listing_id, user_id)
    select l.id, u from listings l cross join unnest(${users}::bigint[]) with ordinality as v(u, k)
    where l.site_id = ${siteId} and k <= (l.id * 104729) % 4`;
  await db.sql`insert into listing_views (listing_id, day, views) select id, date '2026-01-02', (id * 31) % 9 from listings where site_id = ${siteId}`;
  // The upcoming listing that launches after the refresh leads every counter: were it shown before
  // the next refresh, it would be on the first page.
  // So does the one taken down after it (l-10): were it still shown, it would be too.
  const soon = `l-${LIVE + 3}`;
  const leaders = [soon, 'l-10'];
  await db.sql`insert into votes (listing_id, user_id) select l.id, u from listings l, unnest(${users}::bigint[]) u where l.slug = any(${leaders}) on conflict do nothing`;
  await db.sql`insert into follows (listing_id, user_id) select l.id, u from listings l, unnest(${users}::bigint[]) u where l.slug = any(${leaders}) on conflict do nothing`;
  await db.sql`update listing_views set views = 1000 where listing_id in (select id from listings where slug = any(${leaders}))`;
  // The newest live tool, by its tools-ai tag alone: untagged after the refresh, it leaves tools at once.
  await db.sql`update listings set launched_at = '2026-02-01' where slug = 'l-24'`;
  await db.sql`select refresh_directory_views()`;
  // Vacuumed as autovacuum keeps a directory: the plans below cost index-only walks as they are there.
  await db.sql`vacuum analyze`;
  // A category alone is counted as of the last refresh: its live listings now, before the changes.
  for (const slug of ['tools', 'tools-ai', 'games']) {
    const [{ n }] = await db.sql.unsafe(`select count(*)::int as n from listings l where l.site_id = ${siteId} and ${LIVE_NOW} and ${IN_CATEGORY(slug)}`);
    countedAtRefresh[slug] = n as number;
  }
  // Since the refresh: a new live listing (no counters until the next one) and one taken down.
  await db.sql`
    with c as (insert into companies (name, domain, website_url) values ('New', 'new.test', 'https://new.test') returning id)
    insert into listings (site_id, company_id, slug, name, url, domain, status, launched_at, launch_week, primary_category_id, pricing_model, country)
    select ${siteId}, c.id, 'new-one', 'New one', 'https://new.test', 'new.test', 'live', now(), date '2025-12-29', ${cat.id}, 'Enterprise', 'NZ' from c`;
  await db.sql`update listings set status = 'hidden' where slug = 'l-10'`;
  // A listing launched since (counters as an upcoming one, not live at the refresh), a game tagged
  // tools-ai and one untagged, a game moved to tools and a tool moved to games.
  await db.sql`update listings set status = 'live', launched_at = now() where slug = ${soon}`;
  await db.sql`insert into listing_categories (listing_id, category_id) select id, ${ai.id} from listings where slug = 'l-12'`;
  await db.sql`delete from listing_categories where category_id = ${ai.id} and listing_id in (select id from listings where slug in ('l-16', 'l-24'))`;
  await db.sql`update listings set primary_category_id = ${cat.id} where slug = 'l-20'`;
  await db.sql`update listings set primary_category_id = ${games.id} where slug = 'l-21'`;
}, 60_000);
afterAll(() => db.drop());

const COUNTER = { relevance: 's.votes', votes: 's.votes', trending: 's.trend_log', most_viewed: 's.views', most_followed: 's.follows' } as const;

/**
 * Every match in the documented order. Counter sorts show the live listings that were live at the
 * last refresh, in its counters' order (upcoming ones: those with counters).
 */
async function expected(where: string, sort: SearchSort, live: boolean): Promise<{ ids: number[]; total: number }> {
  const matches = `from listings l where l.site_id = ${siteId} and ${where}`;
  const [{ total }] = await db.sql.unsafe(`select count(*)::int as total ${matches}`);
  const rows =
    sort === 'newest'
      ? await db.sql.unsafe(`select l.id::int as id ${matches} order by l.launched_at desc nulls last, l.id desc`)
      : await db.sql.unsafe(
          `select l.id::int as id ${matches} and exists (select from listing_stats s where s.listing_id = l.id ${live ? 'and s.live' : ''})
           order by (select ${COUNTER[sort]} from listing_stats s where s.listing_id = l.id) desc, l.launched_at desc nulls last, l.id desc`,
        );
  return { ids: rows.map((r) => Number(r.id)), total };
}

const LIVE_NOW = "l.status = 'live'";
const UPCOMING = "l.status = 'scheduled' and l.launch_week >= date_trunc('week', now() at time zone 'utc')::date";
/** Tagged with the category or a subcategory of it, or primary in one of them. */
const IN_CATEGORY = (slug: string) => `l.id in (
  select lc.listing_id from listing_categories lc join categories c on c.id = lc.category_id left join categories p on p.id = c.parent_id
  where '${slug}' in (c.slug, p.slug)
  union
  select l2.id from listings l2 join categories c on c.id = l2.primary_category_id left join categories p on p.id = c.parent_id
  where '${slug}' in (c.slug, p.slug))`;
const CASES: { name: string; f: Partial<SearchFilters>; where: string; atRefresh?: string }[] = [
  { name: 'no filter', f: {}, where: LIVE_NOW },
  { name: 'a broad pricing model', f: { pricingModel: 'FREEMIUM' }, where: `${LIVE_NOW} and lower(l.pricing_model) = 'freemium'` },
  { name: 'a rare pricing model', f: { pricingModel: 'enterprise' }, where: `${LIVE_NOW} and lower(l.pricing_model) = 'enterprise'` },
  { name: 'a pricing model no one uses', f: { pricingModel: 'barter' }, where: 'false' },
  { name: 'a rare country', f: { country: 'nz' }, where: `${LIVE_NOW} and l.country = 'NZ'` },
  { name: 'a broad stage', f: { stage: 'launched' }, where: `${LIVE_NOW} and l.stage = 'launched'` },
  { name: 'a stage and a country', f: { stage: 'growing', country: 'US' }, where: `${LIVE_NOW} and l.stage = 'growing' and l.country = 'US'` },
  { name: 'upcoming', f: { status: 'upcoming' }, where: UPCOMING },
  {
    name: 'upcoming, a broad pricing model',
    f: { status: 'upcoming', pricingModel: 'freemium' },
    where: `${UPCOMING} and lower(l.pricing_model) = 'freemium'`,
  },
  {
    name: 'a broad category, by its subcategory too',
    f: { category: 'tools' },
    where: `${LIVE_NOW} and ${IN_CATEGORY('tools')}`,
    atRefresh: 'tools',
  },
  { name: 'a subcategory', f: { category: 'tools-ai' }, where: `${LIVE_NOW} and ${IN_CATEGORY('tools-ai')}`, atRefresh: 'tools-ai' },
  {
    name: 'a category and a pricing model',
    f: { category: 'games', pricingModel: 'paid' },
    where: `${LIVE_NOW} and ${IN_CATEGORY('games')} and lower(l.pricing_model) = 'paid'`,
  },
  { name: 'an unknown category', f: { category: 'nothing-here' }, where: 'false' },
  { name: 'upcoming, a category', f: { status: 'upcoming', category: 'tools' }, where: `${UPCOMING} and ${IN_CATEGORY('tools')}` },
];
const SORTS: SearchSort[] = ['relevance', 'votes', 'trending', 'most_viewed', 'most_followed', 'newest'];

test.each(CASES)(
  '$name: every sort pages through the documented order, total exact (a category alone: as of the last refresh)',
  async ({ f, where, atRefresh }) => {
    for (const sort of SORTS) {
      const want = await expected(where, sort, f.status !== 'upcoming');
      if (atRefresh !== undefined) want.total = countedAtRefresh[atRefresh]!;
      for (const perPage of [3, 20, 100]) {
        const got: number[] = [];
        for (let page = 1; page <= 400; page++) {
          const filters: SearchFilters = { status: 'live', ...f, sort };
          const { ids, total } = await searchListingIds(db.sql, siteId, filters, page, perPage);
          expect(total).toBe(want.total);
          if (ids.length === 0) break;
          got.push(...ids.map(Number));
        }
        expect({ sort, perPage, got }).toEqual({ sort, perPage, got: want.ids });
      }
    }
  },
  60_000,
);

test('the unfiltered total counts listings changed since the last refresh', async () => {
  const before = (await searchListingIds(db.sql, siteId, { status: 'live', sort: 'relevance' }, 1, 5)).total;
  await db.sql`update listings set status = 'hidden' where slug in ('l-11', 'l-12')`;
  await db.sql`update listings set status = 'live', launched_at = now() where slug = 'l-${db.sql.unsafe(String(LIVE + 21))}'`;
  const after = (await searchListingIds(db.sql, siteId, { status: 'live', sort: 'relevance' }, 1, 5)).total;
  const [{ n }] = await db.sql<{ n: number }[]>`select count(*)::int as n from listings where site_id = ${siteId} and status = 'live'`;
  expect(after).toBe(n);
  expect(after).toBe(before - 1);
  await db.sql`select refresh_directory_views()`;
  expect((await searchListingIds(db.sql, siteId, { status: 'live', sort: 'relevance' }, 1, 5)).total).toBe(n);
});

/** The statement a list ran, explained as it ran: which of its two ways read rows, and whether it read its matches (m). */
async function waysRead(f: SearchFilters, page = 1): Promise<{ walked: boolean; sorted: boolean; matches?: boolean; sortedTies?: boolean }> {
  const seen: { text: string; values: unknown[] }[] = [];
  const spy = new Proxy(db.sql, {
    get(target, key) {
      if (key !== 'unsafe') return Reflect.get(target, key);
      return (text: string, values: never[], opts: never) => {
        seen.push({ text, values });
        return target.unsafe(text, values, opts);
      };
    },
  }) as Sql;
  await searchListingIds(spy, siteId, f, page, 20);
  const { text, values } = seen.at(-1)!;
  const rows = await db.sql.unsafe(`explain (analyze, costs off, timing off, summary off) ${text}`, values as never[]);
  const lines = rows.map((r: Record<string, string>) => r['QUERY PLAN']!);
  // The sort probes each match's counters by primary key; the walk reads an index in the sort's order
  // (the statement holds a walk for each sort, and only the sort's own runs).
  const ran = (re: RegExp) => lines.some((l) => re.test(l) && !l.includes('never executed'));
  const matchesAt = lines.findIndex((l) => l.trim() === 'CTE m');
  return {
    sorted: ran(/using listing_stats_pkey on listing_stats/),
    walked: ran(/using (listing_stats_(?!pkey)\w+|listings_live_launched) on/),
    ...(matchesAt >= 0 ? { matches: !lines[matchesAt + 1]!.includes('never executed') } : {}),
    // A walk whose index orders ties otherwise than the list sorts each tie group it crosses.
    ...(f.sort !== 'newest' ? { sortedTies: lines.some((l) => l.includes('Incremental Sort') && !l.includes('never executed')) } : {}),
  };
}

test('a filter matching few listings sorts them; one matching many walks the order; upcoming is never walked', async () => {
  const ways = async (f: SearchFilters) => {
    const { walked, sorted } = await waysRead(f);
    return { walked, sorted };
  };
  expect(await ways({ status: 'live', sort: 'votes', pricingModel: 'enterprise' })).toEqual({ walked: false, sorted: true });
  expect(await ways({ status: 'live', sort: 'trending', country: 'NZ' })).toEqual({ walked: false, sorted: true });
  expect(await ways({ status: 'live', sort: 'votes', pricingModel: 'freemium' })).toEqual({ walked: true, sorted: false });
  expect(await ways({ status: 'live', sort: 'relevance' })).toEqual({ walked: true, sorted: false });
  expect(await ways({ status: 'upcoming', sort: 'votes' })).toEqual({ walked: false, sorted: true });
  expect(await ways({ status: 'live', sort: 'votes', category: 'tools' })).toEqual({ walked: true, sorted: false });
  expect(await ways({ status: 'live', sort: 'votes', category: 'tools-ai' })).toEqual({ walked: false, sorted: true });
});

test('a stage, country, pricing model or category alone is counted without reading its matches; a broad one walks, in the exact order', async () => {
  expect(await waysRead({ status: 'live', sort: 'votes', pricingModel: 'freemium' })).toEqual({
    walked: true,
    sorted: false,
    matches: false,
    sortedTies: false,
  });
  expect(await waysRead({ status: 'live', sort: 'newest', stage: 'launched' })).toEqual({ walked: true, sorted: false, matches: false });
  expect(await waysRead({ status: 'live', sort: 'trending', country: 'US' })).toEqual({ walked: true, sorted: false, matches: false, sortedTies: false });
  // Follows and views tie in large groups (0 to 3 follows here): their walks too read the list's order (migration 0028).
  expect(await waysRead({ status: 'live', sort: 'most_followed', stage: 'launched' })).toEqual({
    walked: true,
    sorted: false,
    matches: false,
    sortedTies: false,
  });
  expect(await waysRead({ status: 'live', sort: 'most_viewed', pricingModel: 'freemium' })).toEqual({
    walked: true,
    sorted: false,
    matches: false,
    sortedTies: false,
  });
  // A category alone is counted from category_counts and walks probing its members.
  expect(await waysRead({ status: 'live', sort: 'votes', category: 'tools' })).toEqual({ walked: true, sorted: false, matches: false, sortedTies: false });
  expect(await waysRead({ status: 'live', sort: 'newest', category: 'tools' })).toEqual({ walked: true, sorted: false, matches: false });
  // Two filters together are counted from their matches.
  expect((await waysRead({ status: 'live', sort: 'votes', country: 'US', stage: 'launched' })).matches).toBe(true);
});

test('a page past the last match reads neither way', async () => {
  for (const f of [{}, { pricingModel: 'freemium' }, { category: 'tools' }, { status: 'upcoming' as const }]) {
    const { walked, sorted } = await waysRead({ status: 'live', sort: 'votes', ...f }, 1000);
    expect({ f, walked, sorted }).toEqual({ f, walked: false, sorted: false });
    expect((await searchListingIds(db.sql, siteId, { status: 'live', sort: 'votes', ...f }, 1000, 20)).ids).toEqual([]);
  }
});

test('the totals of stages, countries and pricing models stay exact through every kind of change, and categories at each refresh', async () => {
  const totals = async () => {
    const got: Record<string, number> = {};
    for (const f of [{ stage: 'growing' }, { stage: 'launched' }, { stage: 'scaling' }, { country: 'us' }, { country: 'NZ' }, { country: 'DE' }]) {
      got[JSON.stringify(f)] = (await searchListingIds(db.sql, siteId, { status: 'live', sort: 'votes', ...f }, 1, 5)).total;
    }
    for (const p of ['freemium', 'Paid', 'enterprise', 'barter']) {
      got[p] = (await searchListingIds(db.sql, siteId, { status: 'live', sort: 'votes', pricingModel: p }, 1, 5)).total;
    }
    for (const c of ['tools', 'tools-ai', 'games']) {
      got[c] = (await searchListingIds(db.sql, siteId, { status: 'live', sort: 'votes', category: c }, 1, 5)).total;
    }
    return got;
  };
  const inCategories = async () => {
    const got: Record<string, number> = {};
    for (const c of ['tools', 'tools-ai', 'games']) {
      const [{ n }] = await db.sql.unsafe(`select count(*)::int as n from listings l where l.site_id = ${siteId} and ${LIVE_NOW} and ${IN_CATEGORY(c)}`);
      got[c] = n as number;
    }
    return got;
  };
  const counted = async () => {
    const [r] = await db.sql<Record<string, number>[]>`
      select count(*) filter (where stage = 'growing')::int as g, count(*) filter (where stage = 'launched')::int as l,
             count(*) filter (where stage = 'scaling')::int as s, count(*) filter (where country = 'US')::int as us,
             count(*) filter (where country = 'NZ')::int as nz, count(*) filter (where country = 'DE')::int as de,
             count(*) filter (where lower(pricing_model) = 'freemium')::int as fr, count(*) filter (where lower(pricing_model) = 'paid')::int as pa,
             count(*) filter (where lower(pricing_model) = 'enterprise')::int as en
      from listings where site_id = ${siteId} and status = 'live'`;
    return {
      '{"stage":"growing"}': r!.g!,
      '{"stage":"launched"}': r!.l!,
      '{"stage":"scaling"}': r!.s!,
      '{"country":"us"}': r!.us!,
      '{"country":"NZ"}': r!.nz!,
      '{"country":"DE"}': r!.de!,
      freemium: r!.fr!,
      Paid: r!.pa!,
      enterprise: r!.en!,
      barter: 0,
      ...(await inCategories()),
    };
  };
  await db.sql`select refresh_directory_views()`;
  const atRefresh = await totals();
  expect(atRefresh).toEqual(await counted());
  const categoriesAtRefresh = { tools: atRefresh.tools, 'tools-ai': atRefresh['tools-ai'], games: atRefresh.games };
  // Since the refresh: a new live listing, one deleted, values changed (one only in case), a bulk
  // change of many rows, one hidden and one made live, and a change to a listing not live.
  await db.sql`
    with c as (insert into companies (name, domain, website_url) values ('Facet', 'facet.test', 'https://facet.test') returning id)
    insert into listings (site_id, company_id, slug, name, url, domain, status, launched_at, launch_week, stage, country, pricing_model)
    select ${siteId}, c.id, 'facet-new', 'Facet new', 'https://facet.test', 'facet.test', 'live', now(), date '2025-12-29', 'scaling', 'DE', 'Enterprise' from c`;
  await db.sql`delete from listings where slug = 'l-2'`;
  await db.sql`update listings set stage = 'scaling', country = 'DE' where slug = 'l-4'`;
  await db.sql`update listings set pricing_model = upper(pricing_model) where slug in ('l-5', 'l-6')`;
  await db.sql`update listings set pricing_model = 'Freemium' where slug = 'l-9'`;
  await db.sql`update listings set stage = 'growing' where site_id = ${siteId} and slug like 'l-1_'`;
  await db.sql`update listings set status = 'hidden' where slug = 'l-25'`;
  await db.sql`update listings set status = 'live', launched_at = now() where slug = ${`l-${LIVE + 4}`}`;
  await db.sql`update listings set country = 'DE' where slug = ${`l-${LIVE + 5}`}`;
  await db.sql`delete from listings where slug in ('l-8', 'l-7')`; // a game tagged tools-ai, and a tool
  await db.sql`update listings set primary_category_id = (select id from categories where slug = 'games') where slug = 'l-9'`;
  // Stages, countries and pricing models exactly; categories as of the refresh, until the next one.
  expect(await totals()).toEqual({ ...(await counted()), ...categoriesAtRefresh });
  expect(categoriesAtRefresh).not.toEqual(await inCategories());
  await db.sql`select refresh_directory_views()`;
  expect(await totals()).toEqual(await counted());
  const [{ n }] = await db.sql<{ n: number }[]>`select count(*)::int as n from listing_facet_count_deltas`;
  expect(n).toBe(0);
});
