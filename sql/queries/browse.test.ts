import { afterAll, beforeAll, expect, test } from 'bun:test';
import { freshDatabase } from '../../test/db.ts';
import { makeCategory, makeUsers } from '../../test/builders.ts';
import type { Sql } from '../db.ts';
import { ensureSite } from '../site.ts';
import { type SearchFilters, type SearchSort, searchListingIds } from './listings.ts';

// Lists without q reach their page one of two ways: walking the sort's order and keeping the
// matches, or reading the matches and sorting them. The statement counts the matches first and
// walks only when they are many (a filter matching few listings made the walk read the whole
// directory). Either way the page must be the one the documented order gives, and total exact.

let db: Awaited<ReturnType<typeof freshDatabase>>;
let siteId: number;
const LIVE = 300;

beforeAll(async () => {
  db = await freshDatabase();
  siteId = (await ensureSite(db.sql, 'main', 'http://localhost')).id;
  const cat = await makeCategory(db.sql, { slug: 'tools' });
  const users = (await makeUsers(db.sql, 6)).map((u) => Number(u.id));
  // 300 live listings: two thirds freemium, three enterprise (rare), the rest paid; launch times
  // repeat so ids break ties. 20 upcoming (next week) and 5 overdue (a past week), never shown.
  await db.sql`
    with c as (insert into companies (name, domain, website_url)
               select 'Co ' || i, 'co' || i || '.test', 'https://co' || i || '.test' from generate_series(1, ${LIVE + 25}) i
               returning id, domain)
    insert into listings (site_id, company_id, slug, name, url, domain, status, launched_at, launch_week, primary_category_id, pricing_model, country)
    select ${siteId}, c.id, 'l-' || n, 'Item ' || n, 'https://' || c.domain, c.domain,
           case when n <= ${LIVE} then 'live' else 'scheduled' end,
           case when n <= ${LIVE} then timestamptz '2026-01-01' + (n % 7) * interval '1 day' end,
           case when n <= ${LIVE + 20} then date_trunc('week', now() at time zone 'utc')::date + 7 else date '2025-12-29' end,
           ${cat.id}::int,
           case when n % 100 = 0 then 'Enterprise' when n % 3 = 0 then 'paid' else 'freemium' end,
           case when n % 50 = 0 then 'NZ' else 'US' end
    from c cross join lateral (select substring(c.domain from 'co(\\d+)')::int as n) x`;
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
  await db.sql`select refresh_directory_views()`;
  // Since the refresh: a new live listing (no counters until the next one) and one taken down.
  await db.sql`
    with c as (insert into companies (name, domain, website_url) values ('New', 'new.test', 'https://new.test') returning id)
    insert into listings (site_id, company_id, slug, name, url, domain, status, launched_at, launch_week, primary_category_id, pricing_model, country)
    select ${siteId}, c.id, 'new-one', 'New one', 'https://new.test', 'new.test', 'live', now(), date '2025-12-29', ${cat.id}, 'Enterprise', 'NZ' from c`;
  await db.sql`update listings set status = 'hidden' where slug = 'l-10'`;
}, 60_000);
afterAll(() => db.drop());

const COUNTER = { relevance: 's.votes', votes: 's.votes', trending: 's.trend_log', most_viewed: 's.views', most_followed: 's.follows' } as const;

/** Every match in the documented order: counter sorts leave out listings without counters yet. */
async function expected(where: string, sort: SearchSort): Promise<{ ids: number[]; total: number }> {
  const matches = `from listings l where l.site_id = ${siteId} and ${where}`;
  const [{ total }] = await db.sql.unsafe(`select count(*)::int as total ${matches}`);
  const rows =
    sort === 'newest'
      ? await db.sql.unsafe(`select l.id::int as id ${matches} order by l.launched_at desc nulls last, l.id desc`)
      : await db.sql.unsafe(
          `select l.id::int as id ${matches} and exists (select from listing_stats s where s.listing_id = l.id)
           order by (select ${COUNTER[sort]} from listing_stats s where s.listing_id = l.id) desc, l.launched_at desc nulls last, l.id desc`,
        );
  return { ids: rows.map((r) => Number(r.id)), total };
}

const LIVE_NOW = "l.status = 'live'";
const UPCOMING = "l.status = 'scheduled' and l.launch_week >= date_trunc('week', now() at time zone 'utc')::date";
const CASES: { name: string; f: Partial<SearchFilters>; where: string }[] = [
  { name: 'no filter', f: {}, where: LIVE_NOW },
  { name: 'a broad pricing model', f: { pricingModel: 'FREEMIUM' }, where: `${LIVE_NOW} and lower(l.pricing_model) = 'freemium'` },
  { name: 'a rare pricing model', f: { pricingModel: 'enterprise' }, where: `${LIVE_NOW} and lower(l.pricing_model) = 'enterprise'` },
  { name: 'a pricing model no one uses', f: { pricingModel: 'barter' }, where: 'false' },
  { name: 'a rare country', f: { country: 'nz' }, where: `${LIVE_NOW} and l.country = 'NZ'` },
  { name: 'upcoming', f: { status: 'upcoming' }, where: UPCOMING },
  {
    name: 'upcoming, a broad pricing model',
    f: { status: 'upcoming', pricingModel: 'freemium' },
    where: `${UPCOMING} and lower(l.pricing_model) = 'freemium'`,
  },
];
const SORTS: SearchSort[] = ['relevance', 'votes', 'trending', 'most_viewed', 'most_followed', 'newest'];

test.each(CASES)(
  '$name: every sort pages through the documented order, total exact',
  async ({ f, where }) => {
    for (const sort of SORTS) {
      const want = await expected(where, sort);
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

/** The statement a list ran, explained as it ran: which of its two ways read rows. */
async function waysRead(f: SearchFilters): Promise<{ walked: boolean; sorted: boolean }> {
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
  await searchListingIds(spy, siteId, f, 1, 20);
  const { text, values } = seen.at(-1)!;
  const rows = await db.sql.unsafe(`explain (analyze, costs off, timing off, summary off) ${text}`, values as never[]);
  const lines = rows.map((r: Record<string, string>) => r['QUERY PLAN']!);
  // The sort reads the matches in a subquery of its own (x); the walk joins the counters to listings.
  const sortedAt = lines.findIndex((l) => l.includes('Subquery Scan on x'));
  const walkedAt = lines.findIndex((l) => /Nested Loop|Hash Join|Merge Join/.test(l) && !l.includes('Left'));
  return {
    sorted: sortedAt >= 0 && !lines[sortedAt]!.includes('never executed'),
    walked: walkedAt >= 0 && !lines[walkedAt]!.includes('never executed'),
  };
}

test('a filter matching few listings sorts them; one matching many walks the order; upcoming is never walked', async () => {
  expect(await waysRead({ status: 'live', sort: 'votes', pricingModel: 'enterprise' })).toEqual({ walked: false, sorted: true });
  expect(await waysRead({ status: 'live', sort: 'trending', country: 'NZ' })).toEqual({ walked: false, sorted: true });
  expect(await waysRead({ status: 'live', sort: 'votes', pricingModel: 'freemium' })).toEqual({ walked: true, sorted: false });
  expect(await waysRead({ status: 'live', sort: 'relevance' })).toEqual({ walked: true, sorted: false });
  expect(await waysRead({ status: 'upcoming', sort: 'votes' })).toEqual({ walked: false, sorted: true });
});
