import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { ensureSite } from './site.ts';
import { freshDatabase } from '../test/db.ts';
import { typoTsqueries } from '../test/typo.ts';
import { makeCategory, makeCompany, makeListing, makeUsers } from '../test/builders.ts';

// The incremental refresh (migration 0013) must come to what a full recomputation from votes,
// follows, views, reviews and listings comes to, whatever happened since the last refresh
// (discounted votes and suspended people's votes, reviews and follows count nowhere).

let db: Awaited<ReturnType<typeof freshDatabase>>;
let siteId: number;
let otherSiteId: number;
beforeAll(async () => {
  db = await freshDatabase();
  siteId = (await ensureSite(db.sql, 'main', 'http://localhost')).id;
  otherSiteId = (await db.sql<{ id: number }[]>`insert into sites (key, name, url) values ('other', 'Other', 'https://other.test') returning id`)[0]!.id;
});
afterAll(() => db.drop());

/** Every listing's counters computed from scratch (what the old materialized view held). */
const fullStats = (sql = db.sql) => sql`
  select l.id::int as listing_id, l.site_id, l.status = 'live' as live,
         coalesce(v.votes, 0)::int as votes, coalesce(v.week_votes, 0)::int as week_votes, coalesce(v.trending, 0)::float8 as trending,
         coalesce(f.follows, 0)::int as follows, coalesce(w.views, 0)::int as views, r.rating_avg, coalesce(r.rating_count, 0)::int as rating_count
  from listings l
  left join (select vo.listing_id, count(*) as votes,
                    count(*) filter (where vo.created_at >= (li.launch_week::timestamp at time zone 'utc')
                                       and vo.created_at < ((li.launch_week + 7)::timestamp at time zone 'utc')) as week_votes,
                    sum(exp(greatest(-ln(2) * extract(epoch from (now() - vo.created_at)) / (3 * 86400), -700))) as trending
             from votes vo join listings li on li.id = vo.listing_id
             where vo.discounted_at is null and vo.user_id not in (select id from users where suspended_at is not null)
             group by vo.listing_id) v on v.listing_id = l.id
  left join (select listing_id, count(*) as follows from follows
             where user_id not in (select id from users where suspended_at is not null) group by listing_id) f on f.listing_id = l.id
  left join (select listing_id, sum(views) as views from listing_views group by listing_id) w on w.listing_id = l.id
  left join (select rv.listing_id, round(avg(rv.rating)::numeric, 2)::float8 as rating_avg, count(*) as rating_count
             from reviews rv join listings ol on ol.id = rv.listing_id
             where not rv.flagged and rv.user_id is distinct from ol.owner_user_id
               and rv.user_id not in (select id from users where suspended_at is not null) group by rv.listing_id) r on r.listing_id = l.id
  order by l.id`;

const storedStats = (sql = db.sql) => sql`
  select listing_id::int, site_id, live, votes, week_votes, trending_now(trend_log) as trending,
         follows, views::int, rating_avg, rating_count
  from listing_stats order by listing_id`;

const fullWeekly = () => db.sql`
  select l.id::int as listing_id, l.site_id, to_char(l.launch_week, 'YYYY-MM-DD') as week, coalesce(v.votes, 0)::int as votes,
         row_number() over (partition by l.site_id, l.launch_week order by coalesce(v.votes, 0) desc, l.launched_at asc nulls last, l.id asc)::int as rank,
         count(*) over (partition by l.site_id, l.launch_week)::int as total
  from listings l
  left join (select vo.listing_id, count(*) as votes from votes vo join listings li on li.id = vo.listing_id
             where vo.created_at >= (li.launch_week::timestamp at time zone 'utc') and vo.created_at < ((li.launch_week + 7)::timestamp at time zone 'utc')
               and vo.discounted_at is null and vo.user_id not in (select id from users where suspended_at is not null)
             group by vo.listing_id) v on v.listing_id = l.id
  where l.status = 'live' and l.launch_week is not null
  order by l.id`;

const storedWeekly = () => db.sql`
  select listing_id::int, site_id, to_char(week, 'YYYY-MM-DD') as week, votes, rank, total from weekly_ranking order by listing_id`;

/** The Domain Rating board's rows from scratch (what the old materialized view held). */
const fullDomainRating = () => db.sql`
  with latest as (select distinct on (company_id) company_id, rating, measured_on from domain_ratings order by company_id, measured_on desc),
  earlier as (select distinct on (d.company_id) d.company_id, d.rating from domain_ratings d join latest la on la.company_id = d.company_id
              where d.measured_on <= la.measured_on - 28 order by d.company_id, d.measured_on desc)
  select l.id::int as listing_id, l.site_id, la.rating, to_char(la.measured_on, 'YYYY-MM-DD') as measured_on, (la.rating - e.rating)::int as trend
  from listings l join latest la on la.company_id = l.company_id left join earlier e on e.company_id = l.company_id
  where l.status = 'live' order by l.id`;
const storedDomainRating = () => db.sql`
  select listing_id::int, site_id, rating, to_char(measured_on, 'YYYY-MM-DD') as measured_on, trend
  from listing_domain_rating where live order by listing_id`;

/** Typo correction's words from scratch, with the listings using each. */
const fullWords = () => db.sql`
  select word, ndoc as listings from ts_stat($q$
    select to_tsvector('simple', coalesce(name, '') || ' ' || coalesce(tagline, '') || ' ' ||
                       array_to_string(keywords, ' ') || ' ' || coalesce(left(description, 2000), ''))
    from listings where status in ('live', 'scheduled')
  $q$) where length(word) between 3 and 40 and word !~ '^[0-9]+$' order by word`;
const storedWords = () => db.sql`select word, listings from search_words order by word`;

/** Category pages from scratch: a live listing is on X's page when tagged (or primary) with X or a subcategory of X. */
const fullCategoryMembers = () => db.sql`
  with tags as (select lc.listing_id, lc.category_id from listing_categories lc
                union select l.id, l.primary_category_id from listings l where l.primary_category_id is not null)
  select c.id as category_id, l.id::int as listing_id, l.site_id,
         exists (select from tags t where t.listing_id = l.id and t.category_id = c.id) as direct,
         coalesce((select votes from listing_stats s where s.listing_id = l.id), 0) as votes
  from categories c join listings l on l.status = 'live'
  where exists (select from tags t where t.listing_id = l.id
                and (t.category_id = c.id or t.category_id in (select ch.id from categories ch where ch.parent_id = c.id)))
  order by c.id, l.id`;
const storedCategoryMembers = () => db.sql`
  select category_id, listing_id::int, site_id, direct, votes from category_members order by category_id, listing_id`;

/** Live listings per site and primary category: as counted, and as kept (the count plus the moves not yet folded). */
const fullPrimaryCounts = () => db.sql`
  select site_id, primary_category_id as category_id, count(*)::int as listings from listings
  where status = 'live' and primary_category_id is not null group by 1, 2 order by 1, 2`;
const keptPrimaryCounts = () => db.sql`
  select site_id, category_id, primary_category_live(site_id, category_id) as listings
  from (select site_id, category_id from primary_category_counts union select site_id, category_id from primary_category_count_deltas) k
  where primary_category_live(site_id, category_id) <> 0 order by 1, 2`;

/** Listings whose stats row names another primary category than the listing does (alternatives read it: 0024). */
const categoryDisagreements = async () =>
  (
    await db.sql<{ id: number }[]>`
      select s.listing_id::int as id from listing_stats s join listings l on l.id = s.listing_id
      where s.primary_category_id is distinct from l.primary_category_id`
  ).map((r) => r.id);

async function expectAgreement() {
  // Exact between refreshes too: a read adds the moves not yet folded.
  expect(await keptPrimaryCounts()).toEqual(await fullPrimaryCounts());
  // The category listing_stats carries is the listing's own at every moment, not as of the refresh.
  expect(await categoryDisagreements()).toEqual([]);
  await db.sql`select refresh_directory_views()`;
  expect(await db.sql`select site_id, category_id, listings from primary_category_counts order by 1, 2`).toEqual(await fullPrimaryCounts());
  expect((await db.sql`select count(*)::int as n from primary_category_count_deltas`)[0]!.n).toBe(0);
  // One transaction: both read the same now().
  const [full, stored] = await db.sql.begin(async (tx) => [await fullStats(tx as never), await storedStats(tx as never)]);
  expect(stored.length).toBe(full.length);
  for (let i = 0; i < full.length; i++) {
    const { trending: a, ...fa } = full[i]!;
    const { trending: b, ...sb } = stored[i]!;
    expect(sb).toEqual(fa);
    // The same decayed sum, from a log-scale store: equal to floating-point precision.
    expect(Math.abs(Number(a) - Number(b))).toBeLessThanOrEqual(1e-9 * Math.max(1, Number(a)));
  }
  expect(await categoryDisagreements()).toEqual([]);
  expect(await storedWeekly()).toEqual(await fullWeekly());
  expect(await storedDomainRating()).toEqual(await fullDomainRating());
  expect(await storedWords()).toEqual(await fullWords());
  expect(await storedCategoryMembers()).toEqual(await fullCategoryMembers());
  expect(await db.sql`select lexeme, listings from search_lexemes order by lexeme`).toEqual(
    await db.sql`select x as lexeme, count(*)::int as listings from listings cross join unnest(tsvector_to_array(search)) x group by x order by x`,
  );
  expect(await db.sql`select site_id, category_id, listings, direct from category_counts order by site_id, category_id`).toEqual(
    await db.sql`select site_id, category_id, count(*)::int as listings, (count(*) filter (where direct))::int as direct
                 from (${fullCategoryMembers()}) m group by site_id, category_id order by site_id, category_id`,
  );
  const totals = await db.sql`
    select s.id as site_id,
           (select count(distinct l.id)::int from listings l join votes v on v.listing_id = l.id
            where l.site_id = s.id and l.status = 'live' and v.discounted_at is null
              and v.user_id not in (select id from users where suspended_at is not null)) as board,
           coalesce((select total from board_totals b where b.site_id = s.id and b.board = 'community-all-time'), 0) as stored
    from sites s`;
  for (const t of totals) expect(t.stored).toBe(t.board);
  const ratingTotals = await db.sql`
    select (select count(*)::int from listing_domain_rating r where r.site_id = s.id and r.live) as board,
           coalesce((select total from board_totals b where b.site_id = s.id and b.board = 'domain-rating'), 0) as stored
    from sites s`;
  for (const t of ratingTotals) expect(t.stored).toBe(t.board);
  expect(await db.sql`select site_id, to_char(week, 'YYYY-MM-DD') as week, total from week_totals order by site_id, week`).toEqual(
    await db.sql`select site_id, to_char(launch_week, 'YYYY-MM-DD') as week, count(*)::int as total from listings
                 where status = 'live' and launch_week is not null group by site_id, launch_week order by site_id, week`,
  );
  expect(await db.sql`select site_id, status, listings from listing_counts order by site_id, status`).toEqual(
    await db.sql`select site_id, status, count(*)::int as listings from listings group by site_id, status order by site_id, status`,
  );
  expect((await db.sql`select ((select count(*) from listing_stats_dirty) + (select count(*) from views_dirty))::int as n`)[0]!.n).toBe(0);
}

/** A small deterministic generator, so a failure repeats. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('the incremental refresh agrees with a full recomputation', () => {
  test('after random batches of votes, follows, views, reviews and listing changes', async () => {
    const { sql } = db;
    const rnd = prng(42);
    const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
    const DAY = 86_400_000;
    const monday = (await sql<{ w: Date }[]>`select date_trunc('week', now() at time zone 'utc')::date as w`)[0]!.w;
    const weeks = [0, 1, 2, 3].map((k) => new Date(+monday - k * 7 * DAY));
    const companies = [await makeCompany(sql), await makeCompany(sql), await makeCompany(sql), await makeCompany(sql)].map((c) => c.id);
    const WORDS = ['notion', 'ledger', 'kanban', 'invoice', 'roadmap', 'calendar', 'crm', 'a1', '2024', 'tracker'];
    const phrase = () => Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => pick(WORDS)).join(' ');
    const parentA = (await makeCategory(sql)).id;
    const parentB = (await makeCategory(sql)).id;
    const categories = [
      parentA,
      parentB,
      (await makeCategory(sql, { parentId: parentA })).id,
      (await makeCategory(sql, { parentId: parentA })).id,
      (await makeCategory(sql, { parentId: parentB })).id,
    ];
    const children = categories.slice(2);
    const listings: number[] = [];
    for (let i = 0; i < 24; i++) {
      const week = i % 6 === 5 ? null : pick(weeks);
      const l = await makeListing(sql, {
        siteId: i % 8 === 7 ? otherSiteId : siteId,
        companyId: pick(companies),
        categoryId: i % 5 === 4 ? null : pick(categories),
        name: `${pick(WORDS)} ${i}`,
        status: i % 7 === 6 ? 'scheduled' : 'live',
        columns: { launch_week: week, launched_at: week ? new Date(+week + (i % 3) * 3_600_000) : null },
      });
      listings.push(l.id);
    }
    const users = (await makeUsers(sql, 40, (g) => `voter${g}@example.com`)).map((u) => u.id);
    await expectAgreement();

    for (let batch = 0; batch < 12; batch++) {
      const steps = 3 + Math.floor(rnd() * 6);
      for (let s = 0; s < steps; s++) {
        const listing = pick(listings);
        const user = pick(users);
        const at = new Date(Date.now() - Math.floor(rnd() * 40 * DAY));
        switch (Math.floor(rnd() * 18)) {
          case 16: // the site team discounts a listing's votes, or counts them again
            if (rnd() < 0.6)
              await sql`update votes set discounted_at = now(), discount_reason = 'ring' where id in (select id from votes where listing_id = ${listing} limit 3)`;
            else await sql`update votes set discounted_at = null, discount_reason = null where listing_id = ${listing}`;
            break;
          case 17: // a person suspended or restored: their votes, reviews and follows stop or start counting
            if (rnd() < 0.6) await sql`select suspend_user(${user}, 'test')`;
            else await sql`select restore_user(${user})`;
            break;
          case 13:
            await sql`insert into listing_categories (listing_id, category_id) values (${listing}, ${pick(categories)}) on conflict do nothing`;
            break;
          case 14:
            if (rnd() < 0.5) await sql`delete from listing_categories where listing_id = ${listing} and not is_primary`;
            else await sql`update listings set primary_category_id = ${rnd() < 0.2 ? null : pick(categories)} where id = ${listing}`;
            break;
          case 15:
            if (rnd() < 0.3) await sql`update categories set parent_id = ${pick([parentA, parentB])} where id = ${pick(children)}`;
            else await sql`insert into votes (listing_id, user_id) values (${listing}, ${user}) on conflict do nothing`;
            break;
          case 10:
            await sql`insert into domain_ratings (company_id, measured_on, rating) values (${pick(companies)}, ${at}::date, ${Math.floor(rnd() * 101)})
                      on conflict (company_id, measured_on) do update set rating = excluded.rating`;
            break;
          case 11:
            if (rnd() < 0.5) await sql`update listings set company_id = ${pick(companies)} where id = ${listing}`;
            else
              await sql`delete from domain_ratings where (company_id, measured_on) in (select company_id, measured_on from domain_ratings order by company_id, measured_on limit 1 offset ${Math.floor(rnd() * 4)})`;
            break;
          case 12:
            await sql`update listings set tagline = ${phrase()}, keywords = ${[pick(WORDS), pick(WORDS)].filter((w, i, a) => a.indexOf(w) === i)}, description = ${phrase()}
                      where id = ${listing}`;
            break;
          case 0: // many votes in one statement
            await sql`insert into votes (listing_id, user_id, created_at)
                      select ${listing}, u, ${at}::timestamptz - (u % 5) * interval '17 hours' from unnest(${users.slice(0, 1 + Math.floor(rnd() * 30))}::bigint[]) u
                      on conflict do nothing`;
            break;
          case 1:
          case 2:
            await sql`insert into votes (listing_id, user_id, created_at) values (${listing}, ${user}, ${at}) on conflict do nothing`;
            break;
          case 3:
            await sql`delete from votes where listing_id = ${listing} and user_id in (select user_id from votes where listing_id = ${listing} limit 2)`;
            break;
          case 4:
            await sql`insert into follows (listing_id, user_id) values (${listing}, ${user}) on conflict do nothing`;
            await sql`insert into listing_views (listing_id, day, views) values (${listing}, ${at}::date, 3)
                      on conflict (listing_id, day) do update set views = listing_views.views + 3`;
            break;
          case 5:
            await sql`insert into reviews (listing_id, user_id, rating, flagged) values (${listing}, ${user}, ${1 + Math.floor(rnd() * 5)}, ${rnd() < 0.2})
                      on conflict (listing_id, user_id) do update set rating = excluded.rating, flagged = excluded.flagged`;
            break;
          case 6: // the owner's own review stops counting once they own the listing
            await sql`update listings set owner_user_id = ${user} where id = ${listing}`;
            break;
          case 7: // into another week, or out of the weekly ranking
            await sql`update listings set launch_week = ${rnd() < 0.2 ? null : pick(weeks)} where id = ${listing}`;
            break;
          case 8:
            await sql`update listings set status = ${pick(['live', 'live', 'hidden', 'scheduled'])} where id = ${listing}`;
            break;
          case 9:
            if (rnd() < 0.3 && listings.length > 12) {
              listings.splice(listings.indexOf(listing), 1);
              await sql`delete from listings where id = ${listing}`;
            } else {
              await sql`update listings set launched_at = launched_at - interval '1 hour' where id = ${listing}`;
            }
            break;
        }
      }
      await expectAgreement();
    }
  });

  test('a refresh recomputes only what was noted since the last one', async () => {
    const { sql } = db;
    const [a, b] = await sql<{ id: number }[]>`select id::int from listings where site_id = ${siteId} order by id limit 2`;
    await sql`select refresh_directory_views()`;
    // A counter changed behind the refresh's back stays as it is: nothing noted that listing.
    await sql`update listing_stats set follows = 999 where listing_id = ${b!.id}`;
    const [u] = await makeUsers(sql, 1, (g) => `late${g}@example.com`);
    await sql`insert into votes (listing_id, user_id) values (${a!.id}, ${u!.id})`;
    expect((await sql`select count(*)::int as n from listing_stats_dirty`)[0]!.n).toBe(1);
    await sql`select refresh_directory_views()`;
    expect((await sql`select follows from listing_stats where listing_id = ${b!.id}`)[0]!.follows).toBe(999);
    // Noted again, it is recomputed from its sources.
    await sql`insert into listing_stats_dirty values (${b!.id})`;
    await expectAgreement();
  });

  test("moving a subcategory to another parent moves its listings to that parent's page", async () => {
    const { sql } = db;
    const [from, to] = [(await makeCategory(sql)).id, (await makeCategory(sql)).id];
    const child = (await makeCategory(sql, { parentId: from })).id;
    const company = await makeCompany(sql);
    const l = await makeListing(sql, { siteId, companyId: company.id, categoryId: child });
    await expectAgreement();
    expect((await sql`select category_id from category_members where listing_id = ${l.id} order by category_id`).map((r) => r.category_id)).toEqual(
      [from, child].sort((a, b) => a - b),
    );
    await sql`update categories set parent_id = ${to} where id = ${child}`;
    await expectAgreement();
    expect((await sql`select category_id from category_members where listing_id = ${l.id} order by category_id`).map((r) => r.category_id)).toEqual(
      [to, child].sort((a, b) => a - b),
    );
  });

  test('a search matches the same listings with its prefixes spelled out as the known lexemes', async () => {
    const { sql } = db;
    const company = await makeCompany(sql);
    const texts = [
      ['Productive Kit', 'product planning for teams', 'Projects and products, professionally.'],
      ['Prose Pro', 'a pro writing tool', 'Prompts, proofs and prose.'],
      ['Echonest', 'music data', 'Profiles of artists and promoters.'],
      ['Kitchen Sink', 'everything kit', 'Nothing to do with the others.'],
    ];
    for (const [name, tagline, description] of texts) {
      await makeListing(sql, { siteId, companyId: company.id, name, columns: { tagline, description } });
    }
    await sql`select refresh_directory_views()`;
    const queries = ['pro', 'prod', 'cehonest pro', 'echonest prof', 'kit pro', 'kitc', 'productivity', 'proje kit', 'zzzz pro', 'prompts'];
    let expanded = 0;
    for (const q of queries) {
      const tq = await typoTsqueries(sql, q);
      const [row] = await sql`
        select ${tq.matched} <> ${tq.ranked} as expanded,
               array(select id from listings where search @@ ${tq.ranked}::tsquery order by id) as ranked_ids,
               array(select id from listings where search @@ ${tq.matched}::tsquery order by id) as matched_ids`;
      expect({ q, ids: row!.matched_ids }).toEqual({ q, ids: row!.ranked_ids });
      if (row!.expanded) expanded++;
    }
    // Most of these have a prefix that stands for a few known lexemes, so the match differs in form.
    expect(expanded).toBeGreaterThan(5);
    expect((await typoTsqueries(sql, 'cehonest pro')).ranked).toContain("'pro':*");
  });

  test('trending keeps its order as time passes and shows the score as of now', async () => {
    const { sql } = db;
    const [row] = await sql`select trend_x(now()) - trend_x(now() - interval '3 days') as half_life`;
    expect(Number(row!.half_life)).toBeCloseTo(Math.LN2, 12);
    // A vote from years ago: no overflow, no underflow error, a score of about zero.
    const [old] = await sql`select trending_now(trend_x(now() - interval '20 years')) as t, trending_now('-infinity') as none`;
    expect(Number(old!.t)).toBeLessThan(1e-300);
    expect(Number(old!.none)).toBeLessThan(1e-300);
  });

  test('a listing name change adds its words to typo correction at the next refresh; a vote alone does not refresh the views', async () => {
    const { sql } = db;
    const [l] = await sql<{ id: number }[]>`select id::int from listings where site_id = ${siteId} and status = 'live' order by id limit 1`;
    await sql`select refresh_directory_views()`;
    await sql`update listings set name = 'Quixotically' where id = ${l!.id}`;
    expect(await sql`select * from views_dirty`).toHaveLength(0);
    await sql`select refresh_directory_views()`;
    expect(await sql`select word from search_words where word = 'quixotically'`).toHaveLength(1);
    const [u] = await makeUsers(sql, 1, (g) => `word${g}@example.com`);
    await sql`insert into votes (listing_id, user_id) values (${l!.id}, ${u!.id})`;
    expect(await sql`select * from views_dirty`).toHaveLength(0);
  });
});
