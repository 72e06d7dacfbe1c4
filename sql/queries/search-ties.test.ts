import { afterAll, beforeAll, expect, test } from 'bun:test';
import { freshDatabase } from '../../test/db.ts';
import { typoTsqueries } from '../../test/typo.ts';
import { makeUsers } from '../../test/builders.ts';
import { ensureSite } from '../site.ts';
import { searchListingIds } from './listings.ts';

// Relevance when most matches tie: a broad word that every tagline has once gives every match the
// same score, and votes (then launch time, then id) order the tie. Large ties are read by walking
// listing_stats in votes order; listings changed since the last refresh are looked up instead. The
// pages must come out exactly as ordering every match by its looked-up votes would.

let db: Awaited<ReturnType<typeof freshDatabase>>;
let siteId: number;
const TIED = 600; // over TIES_AT (500) matches, where large ties are walked

beforeAll(async () => {
  db = await freshDatabase();
  siteId = (await ensureSite(db.sql, 'main', 'http://localhost')).id;
  const users = await makeUsers(db.sql, 8);
  const userIds = users.map((u) => Number(u.id));
  // Tied listings, a few whose names start with the word (a better tier, above the tie), and
  // listings that do not match. Launch times repeat, so ids break some ties too.
  await db.sql`
    with c as (insert into companies (name, domain, website_url)
               select 'Co ' || i, 'co' || i || '.test', 'https://co' || i || '.test' from generate_series(1, ${TIED + 30}) i
               returning id, domain)
    insert into listings (site_id, company_id, slug, name, url, domain, tagline, status, launched_at, launch_week)
    select ${siteId}, c.id, 'l-' || n, case when n <= 3 then 'Gadget ' || n else 'Item ' || n end, 'https://' || c.domain, c.domain,
           case when n <= ${TIED} then 'Gadget tools for teams' else 'Nothing alike here' end, 'live',
           timestamptz '2026-01-01' + (n % 17) * interval '1 day', date '2025-12-29'
    from c cross join lateral (select substring(c.domain from 'co(\\d+)')::int as n) x`;
  // Votes: 0 to 8 per listing, many equal.
  await db.sql`
    insert into votes (listing_id, user_id)
    select l.id, u from listings l cross join unnest(${userIds}::bigint[]) with ordinality as v(u, k)
    where l.site_id = ${siteId} and k <= (l.id * 7919) % 9`;
  await db.sql`select refresh_directory_views()`;

  // Since the refresh: new matching listings (no counters yet), votes that moved some listings,
  // a launch time changed, and a listing taken down.
  await db.sql`
    with c as (insert into companies (name, domain, website_url)
               select 'New ' || i, 'new' || i || '.test', 'https://new' || i || '.test' from generate_series(1, 3) i returning id, domain)
    insert into listings (site_id, company_id, slug, name, url, domain, tagline, status, launched_at, launch_week)
    select ${siteId}, c.id, replace(c.domain, '.', '-'), 'New ' || c.id, 'https://' || c.domain, c.domain, 'Gadget tools for teams', 'live', now(), date '2025-12-29' from c`;
  await db.sql`
    insert into votes (listing_id, user_id)
    select l.id, ${userIds[7]!} from listings l where l.slug in ('l-40', 'l-41', 'l-42', 'l-43', 'l-400') on conflict do nothing`;
  await db.sql`update listings set launched_at = timestamptz '2027-01-01' where slug = 'l-50'`;
  await db.sql`update listings set status = 'hidden' where slug = 'l-60'`;
}, 60_000);
afterAll(() => db.drop());

/** Every match in relevance order, each one's votes looked up: the order the pages must follow. */
const expected = async (q: string) => {
  const tq = await typoTsqueries(db.sql, q);
  return (
    await db.sql<{ id: string }[]>`
      select l.id::text from listings l left join listing_stats s on s.listing_id = l.id
      where l.site_id = ${siteId} and l.status = 'live' and l.search @@ ${tq.matched}::tsquery
      order by case when starts_with(lower(l.name), ${q}) then 1 else 0 end desc,
               ts_rank(l.search_rank, ${tq.ranked}::tsquery) desc,
               coalesce(s.votes, 0) desc, l.launched_at desc nulls last, l.id desc`
  ).map((r) => r.id);
};

test('the tie is large and scores alike: what this test is about', async () => {
  // The three named "Gadget" score higher (the word in the name) and rank above the tie.
  const tq = await typoTsqueries(db.sql, 'gadget');
  const groups = await db.sql<{ n: number }[]>`
    select count(*)::int as n from listings l where l.site_id = ${siteId} and l.status = 'live' and l.search @@ ${tq.matched}::tsquery
    group by ts_rank(l.search_rank, ${tq.ranked}::tsquery) order by n`;
  expect(groups.map((g) => g.n)).toEqual([3, TIED - 3 - 1 + 3]);
});

test.each([7, 20, 100])('every page follows the looked-up order (per_page %i)', async (perPage) => {
  for (const q of ['gadget', 'gadgte']) {
    const all = await expected(q);
    const got: string[] = [];
    for (let page = 1; ; page++) {
      const { ids, total } = await searchListingIds(db.sql, siteId, { q, status: 'live', sort: 'relevance' }, page, perPage);
      expect(total).toBe(all.length);
      if (!ids.length) break;
      got.push(...ids.map(String));
    }
    expect(got).toEqual(all);
  }
});
