import { beforeAll, expect, test } from 'bun:test';
import { planDatabase, ranPlan, type PlanDatabase } from '../../test/plans.ts';
import type { Sql } from '../db.ts';
import { browseStatement } from './browse.ts';
import { categoryListingIds } from './categories.ts';
import type { SearchFilters } from './listing-filters.ts';

// The plans of the lists without q (browse-*.sql) and of a category's page (get_category) as
// PostgreSQL caches them (generic: the plan every call after the fifth runs), run. A list of many
// matches walks its sort's own index and stops at the page: no sort of its matches, and, when it
// is counted without them, no read of them either. A list of few matches reads them through its
// most selective filter's index and sorts only them.

const plans = planDatabase(3000);
let db: PlanDatabase['db'];
let one: Sql;
let siteId: number;
beforeAll(() => {
  ({ db, one, siteId } = plans);
});

/** The plan as it ran, and whether the matches (CTE m) were read. */
async function plan(f: Partial<SearchFilters>, perPage = 20, page = 1) {
  const { text, values } = browseStatement(siteId, { status: 'live', sort: 'votes', ...f }, page, perPage, 'http://localhost');
  const ran = await ranPlan(one, text, values);
  const m = ran.lines.findIndex((l) => l.trim() === 'CTE m');
  return { ...ran, matchesRead: m >= 0 && !ran.lines[m + 1]!.includes('never executed') };
}

const WALKS = {
  relevance: 'listing_stats_live_rank',
  votes: 'listing_stats_live_rank',
  trending: 'listing_stats_live_trending',
  most_viewed: 'listing_stats_live_views',
  most_followed: 'listing_stats_live_follows',
  newest: 'listings_live_launched',
} as const;

test('the live list walks its sort’s own index to the page: no sort, no read of the matches', async () => {
  for (const [sort, index] of Object.entries(WALKS) as [keyof typeof WALKS, string][]) {
    const p = await plan({ sort }, 20, 3);
    const others = Object.values(WALKS).filter((i) => i !== index);
    expect({ sort, walked: p.ran(index), others: others.filter(p.ran), sorted: p.sorted, matchesRead: p.matchesRead }).toEqual({
      sort,
      walked: true,
      others: [],
      sorted: [],
      matchesRead: false,
    });
    // The summaries' function is inlined into the statement, never called as a function scan.
    expect(p.text).not.toContain('Function Scan on listing_summaries');
  }
});

test('one broad stage or a category alone walks, checking each listing it reads by primary key, without reading the matches', async () => {
  const [{ slug }] = await db.sql<{ slug: string }[]>`
    select c.slug from category_counts k join categories c on c.id = k.category_id where k.site_id = ${siteId} order by k.listings desc limit 1`;
  for (const [f, probe] of [
    [{ stage: 'launched' }, 'listings_pkey'],
    [{ stage: 'launched', sort: 'newest' }, 'listings_live_launched'],
    [{ category: slug }, 'category_members_pkey'],
    [{ category: slug, sort: 'most_viewed' }, 'category_members_pkey'],
  ] as const) {
    const p = await plan(f, 5);
    expect({ f, walked: Object.values(WALKS).some(p.ran), probe: p.ran(probe), sorted: p.sorted, matchesRead: p.matchesRead }).toEqual({
      f,
      walked: true,
      probe: true,
      sorted: [],
      matchesRead: false,
    });
  }
});

test('two broad filters are counted from their matches, read by one filter’s index, and walk keeping them', async () => {
  const p = await plan({ stage: 'launched', pricingModel: 'freemium' }, 1);
  expect(p.matchesRead).toBe(true);
  expect(p.ran('listings_stage_browse')).toBe(true);
  expect(p.ran('listing_stats_live_rank')).toBe(true);
  expect(p.text).toContain('hashed SubPlan');
  expect(p.sorted).toEqual([]);
});

test('few matches are read through their filter’s index and only they are sorted', async () => {
  const [{ country, n }] = await db.sql<{ country: string; n: number }[]>`
    select country, count(*)::int as n from listings where site_id = ${siteId} and status = 'live' and country is not null
    group by country order by count(*), country limit 1`;
  const [{ domain }] = await db.sql<{ domain: string }[]>`select domain from listings where site_id = ${siteId} and status = 'live' order by id limit 1`;
  const [{ upcoming }] = await db.sql<{ upcoming: number }[]>`
    select count(*)::int as upcoming from listings
    where site_id = ${siteId} and status = 'scheduled' and launch_week >= date_trunc('week', now() at time zone 'utc')::date`;
  for (const [f, index, most] of [
    [{ country }, 'listings_country_browse', n],
    [{ country, sort: 'newest' }, 'listings_country_browse', n],
    [{ pricingModel: 'barter' }, 'listings_pricing_browse', 0],
    [{ domain }, 'listings_domain_suffix', 1],
    [{ status: 'upcoming' }, 'listings', upcoming],
  ] as const) {
    const p = await plan(f);
    expect({
      f,
      walked: Object.values(WALKS).some(p.ran),
      read: p.ran(index),
      seqScan: p.text.includes('Seq Scan on listings l') && index !== 'listings',
    }).toEqual({
      f,
      walked: false,
      read: true,
      seqScan: false,
    });
    expect(p.sorted.every((rows) => rows <= most)).toBe(true);
  }
});

test('a category’s page (get_category) walks category_members_page to the page, with no sort', async () => {
  // The tagged template as it runs: its text with $n for each value.
  let run: { text: string; values: unknown[] } | null = null;
  const spy = new Proxy(one, {
    apply(target, self, args: [TemplateStringsArray, ...unknown[]]) {
      const [strings, ...values] = args;
      run = { text: strings.reduce((text, s, i) => `${text}$${i}${s}`), values };
      return Reflect.apply(target, self, args);
    },
  }) as Sql;
  const [{ id }] = await db.sql<{ id: number }[]>`
    select k.category_id as id from category_counts k where k.site_id = ${siteId} order by k.listings desc limit 1`;
  await categoryListingIds(spy, siteId, id, 3, 20);
  const { text, values } = run!;
  const lines = (await one.unsafe<{ 'QUERY PLAN': string }[]>(`explain (analyze, costs off, timing off, summary off) ${text}`, values as never[])).map(
    (r) => r['QUERY PLAN'],
  );
  expect(lines.some((l) => l.includes('Scan using category_members_page') && !l.includes('never executed'))).toBe(true);
  expect(lines.filter((l) => /Sort \(/.test(l) && !l.includes('never executed'))).toEqual([]);
});
