import { afterAll, beforeAll, expect, test } from 'bun:test';
import postgres from 'postgres';
import { freshDatabase } from '../../test/db.ts';
import type { Sql } from '../db.ts';
import { makeCategory, makeUsers } from '../../test/builders.ts';
import { ensureSite } from '../site.ts';
import { listingAlternativeIds } from './listing-alternatives.ts';

// A listing's alternatives from its category are read from listing_stats_category_rank (the
// category's live listings in votes order, migration 0024). They must give the order of looking up
// every member's counters, whatever has changed since the last refresh: a listing moved into the
// category or taken down is read as it is now.

let db: Awaited<ReturnType<typeof freshDatabase>>;
let siteId: number;
const BIG = 40; // the category of "me"
const OTHERS = 200; // listings of another category: the directory is large beside the category

beforeAll(async () => {
  db = await freshDatabase();
  siteId = (await ensureSite(db.sql, 'main', 'http://localhost')).id;
  const [a, b] = [await makeCategory(db.sql, { slug: 'alpha' }), await makeCategory(db.sql, { slug: 'beta' })];
  const users = (await makeUsers(db.sql, 6)).map((u) => Number(u.id));
  await db.sql`
    with c as (insert into companies (name, domain, website_url)
               select 'Co ' || i, 'co' || i || '.test', 'https://co' || i || '.test' from generate_series(1, ${BIG + OTHERS}) i
               returning id, domain)
    insert into listings (site_id, company_id, slug, name, url, domain, status, launched_at, launch_week, primary_category_id)
    select ${siteId}, c.id, 'l-' || n, 'Item ' || n, 'https://' || c.domain, c.domain, 'live',
           case when n % 11 = 0 then null else timestamptz '2026-01-01' + (n % 5) * interval '1 day' end, date '2025-12-29',
           case when n <= ${BIG} then ${a.id}::int else ${b.id}::int end
    from c cross join lateral (select substring(c.domain from 'co(\\d+)')::int as n) x`;
  // Votes: 0 to 5 per listing, many equal; launch times repeat, so ids break some ties.
  await db.sql`
    insert into votes (listing_id, user_id)
    select l.id, u from listings l cross join unnest(${users}::bigint[]) with ordinality as v(u, k)
    where l.site_id = ${siteId} and k <= (l.id * 7919) % 6`;
  // Approved alternatives of l-1: one in its category (left out of the category's part), one not.
  await db.sql`
    insert into listing_alternatives (listing_id, alternative_id, approved)
    select m.id, o.id, true from listings m, listings o where m.slug = 'l-1' and o.slug in ('l-2', 'l-100')`;
  await db.sql`select refresh_directory_views()`;
  // Since the refresh: a listing moved into the category, one taken down, a new one (no counters
  // until the next refresh), and votes.
  await db.sql`update listings set primary_category_id = ${a.id} where slug = 'l-150'`;
  await db.sql`update listings set status = 'hidden' where slug = 'l-7'`;
  await db.sql`
    with c as (insert into companies (name, domain, website_url) values ('New', 'new.test', 'https://new.test') returning id)
    insert into listings (site_id, company_id, slug, name, url, domain, status, launched_at, launch_week, primary_category_id)
    select ${siteId}, c.id, 'new-one', 'New one', 'https://new.test', 'new.test', 'live', now(), date '2025-12-29', ${a.id} from c`;
  await db.sql`insert into votes (listing_id, user_id) select l.id, ${users[5]!} from listings l where l.slug in ('l-3', 'l-4') on conflict do nothing`;
}, 60_000);
afterAll(() => db.drop());

/** The category's part in full: live members with counters, by votes, launch time, id. */
const expected = async () =>
  (
    await db.sql<{ slug: string }[]>`
      select l.slug from listings l join listing_stats s on s.listing_id = l.id and s.live
      where l.site_id = ${siteId} and l.status = 'live' and l.primary_category_id = (select id from categories where slug = 'alpha')
        and l.slug not in ('l-1', 'l-2')
      order by s.votes desc, s.launched_at desc nulls last, s.listing_id desc`
  ).map((r) => r.slug);

const slugsOf = async (ids: number[]) => {
  const rows = await db.sql<{ id: number; slug: string }[]>`select id::int, slug from listings where id = any(${ids}::bigint[])`;
  return ids.map((id) => rows.find((r) => r.id === id)!.slug);
};

test.each([1, 3, 6, 20, 100])('every page follows the looked-up order (per_page %i)', async (perPage) => {
  const all = await expected();
  expect(all).toContain('l-150');
  expect(all).not.toContain('l-7');
  const got: string[] = [];
  for (let page = 1; page <= 60; page++) {
    const found = await listingAlternativeIds(db.sql, siteId, 'l-1', page, perPage);
    // The category counted as it is now: the new listing too, which pages show from the next refresh.
    expect(found!.total).toBe(2 + all.length + 1);
    const ids = found!.items.map((i) => i.id);
    if (!ids.length) break;
    got.push(...(await slugsOf(ids)));
  }
  // The approved ones first, then the category.
  expect(got.slice(0, 2).sort()).toEqual(['l-100', 'l-2']);
  expect(got.slice(2)).toEqual(all);
});

// At a million listings the cached plan of the category's part, which cannot see how small a page
// is, joined the live check to every live listing (a hash join of 850k rows, 270 ms) or, allowed,
// launched two parallel workers for six rows (5-6 ms, against 0.15 ms for the walk). The check is a
// scalar lookup per entry read, so the plan can only walk the index: here with parallel plans made
// free and the generic plan forced, the planning that chose those plans at that size.
test("the category's part walks its index in order, one lookup per entry, never in parallel", async () => {
  const statements: { text: string; params: unknown[] }[] = [];
  const one = postgres(db.url, {
    max: 1,
    onnotice: () => {},
    connection: {
      plan_cache_mode: 'force_generic_plan',
      parallel_setup_cost: '0',
      parallel_tuple_cost: '0',
      min_parallel_index_scan_size: '0',
      min_parallel_table_scan_size: '0',
    },
    debug: (_c: number, text: string, params: unknown[]) => statements.push({ text, params }),
  }) as unknown as Sql;
  try {
    await listingAlternativeIds(one, siteId, 'l-1', 1, 6);
    const part = statements.find((s) => s.text.includes('listing_stats_category_rank') || s.text.includes('primary_category_live'))!;
    const [{ 'QUERY PLAN': plan }] = await one.unsafe(`explain (format json) ${part.text}`, part.params as never[]);
    const nodes: { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Parent Relationship'?: string }[] = [];
    const walk = (n: Record<string, unknown>) => {
      nodes.push(n as never);
      for (const c of (n.Plans as Record<string, unknown>[] | undefined) ?? []) walk(c);
    };
    walk(plan[0].Plan);
    const types = nodes.map((n) => n['Node Type']);
    expect(types).not.toContain('Gather');
    expect(types).not.toContain('Gather Merge');
    expect(types).not.toContain('Hash Join');
    expect(types).not.toContain('Sort');
    // listings is read only by its primary key, once per entry (a subplan), never scanned.
    const listings = nodes.filter((n) => n['Relation Name'] === 'listings');
    expect(listings.map((n) => [n['Node Type'], n['Index Name'], n['Parent Relationship']])).toEqual([['Index Scan', 'listings_pkey', 'SubPlan']]);
    expect(nodes.some((n) => n['Index Name'] === 'listing_stats_category_rank')).toBe(true);
  } finally {
    await one.end();
  }
});
