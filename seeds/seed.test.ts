import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Sql } from '../sql/db.ts';
import { ensureSite } from '../sql/site.ts';
import { freshDatabase } from '../test/db.ts';
import { seedDemo } from './demo.ts';
import { seedSynthetic } from './synthetic.ts';
import { nameInfixes, planSynthetic } from './synthetic-sql.ts';
import { transaction } from '../sql/db.ts';

type Db = Awaited<ReturnType<typeof freshDatabase>>;
const dbs: Db[] = [];
let sql: Sql;
let siteId: number;
const now = new Date();

async function seeded(opts: { now?: Date } = {}) {
  const db = await freshDatabase();
  dbs.push(db);
  const site = await ensureSite(db.sql, 'main', 'http://127.0.0.1:3000');
  const started = performance.now();
  const counts = await seedDemo(db.sql, site.id, opts);
  return { db, siteId: site.id, counts, ms: performance.now() - started };
}

const one = async <T = any>(q: Promise<any[]>): Promise<T> => (await q)[0] as T;

beforeAll(async () => {
  const s = await seeded({ now });
  sql = s.db.sql;
  siteId = s.siteId;
  console.log(`seedDemo: ${s.counts.listings} listings, ${s.counts.categories} categories in ${Math.round(s.ms)} ms`);
  expect(s.ms).toBeLessThan(15_000);
}, 60_000);
afterAll(async () => {
  for (const db of dbs) await db.drop();
});

describe('seedDemo', () => {
  test('at least 25 categories in two levels, each with a description, 2-4 FAQs and 3-6 attributes', async () => {
    const c = await one(sql`
      select count(*)::int as total, count(*) filter (where parent_id is null)::int as parents,
             count(*) filter (where description = '' or jsonb_array_length(faqs) not between 2 and 4
                              or jsonb_array_length(attributes) not between 3 and 6)::int as incomplete,
             count(*) filter (where exists (select 1 from jsonb_array_elements(faqs) f where f->>'question' is null or f->>'answer' is null)
                              or exists (select 1 from jsonb_array_elements(attributes) a where a->>'key' is null or a->>'label' is null))::int as malformed
      from categories`);
    expect(c.total).toBeGreaterThanOrEqual(25);
    expect(c.parents).toBeGreaterThanOrEqual(6);
    expect(c.incomplete).toBe(0);
    expect(c.malformed).toBe(0);
    const kids = await sql`select p.slug, count(k.id)::int as n from categories p left join categories k on k.parent_id = p.id
                           where p.parent_id is null group by p.slug`;
    for (const k of kids) expect(k.n).toBeGreaterThanOrEqual(3);
  });

  test('at least 300 listings across the four statuses, about 20% paid', async () => {
    const rows = await sql`select status, count(*)::int as n, count(*) filter (where plan = 'paid')::int as paid
                           from listings where site_id = ${siteId} group by status`;
    const by = Object.fromEntries(rows.map((r) => [r.status, r]));
    expect(rows.reduce((a, r) => a + r.n, 0)).toBeGreaterThanOrEqual(300);
    expect(by.live.n).toBeGreaterThanOrEqual(250);
    expect(by.scheduled.n).toBeGreaterThanOrEqual(25);
    expect(by.awaiting_badge.n).toBeGreaterThanOrEqual(10);
    expect(by.draft.n).toBeGreaterThanOrEqual(10);
    expect(by.awaiting_badge.paid + by.draft.paid).toBe(0);
    const paidShare = rows.reduce((a, r) => a + r.paid, 0) / rows.reduce((a, r) => a + r.n, 0);
    expect(paidShare).toBeGreaterThan(0.12);
    expect(paidShare).toBeLessThan(0.3);
  });

  test('launch weeks: live in the past 16 weeks, scheduled 1-8 weeks out, awaiting_badge 6-8 weeks out', async () => {
    const bad = await one(sql`
      with w as (select date_trunc('week', ${now}::timestamptz at time zone 'utc')::date as cur)
      select count(*) filter (where status = 'live' and (launch_week not between cur - 105 and cur or launched_at is null
                                or launched_at < launch_week::timestamp at time zone 'utc'
                                or launched_at >= (launch_week + 7)::timestamp at time zone 'utc' or launched_at > ${now}))::int as live,
             count(*) filter (where status = 'scheduled' and (launch_week not between cur + 7 and cur + 56 or launched_at is not null))::int as scheduled,
             count(*) filter (where status = 'awaiting_badge' and (launch_week not between cur + 42 and cur + 56 or plan <> 'free'))::int as awaiting,
             count(*) filter (where status = 'draft' and launch_week is not null)::int as draft,
             count(distinct launch_week) filter (where status = 'live')::int as live_weeks,
             max(n)::int as fullest_week
      from listings, w, lateral (select count(*) as n from listings x where x.site_id = listings.site_id and x.launch_week = listings.launch_week) c
      where site_id = ${siteId}`);
    expect(bad).toEqual({ live: 0, scheduled: 0, awaiting: 0, draft: 0, live_weeks: 16, fullest_week: bad.fullest_week });
    expect(bad.fullest_week).toBeLessThanOrEqual(20);
  });

  test('votes span at least 12 past weeks, mostly in the launch week, none in the future', async () => {
    const v = await one(sql`
      select count(distinct date_trunc('week', v.created_at at time zone 'utc'))
               filter (where v.created_at < date_trunc('week', ${now}::timestamptz at time zone 'utc'))::int as past_weeks,
             avg((v.created_at >= l.launch_week::timestamp at time zone 'utc' and v.created_at < (l.launch_week + 7)::timestamp at time zone 'utc')::int)::float8 as in_week,
             count(*) filter (where v.created_at > ${now} or v.created_at < l.launched_at)::int as out_of_range,
             count(*) filter (where l.status <> 'live')::int as on_unlaunched
      from votes v join listings l on l.id = v.listing_id where l.site_id = ${siteId}`);
    expect(v.past_weeks).toBeGreaterThanOrEqual(12);
    expect(v.in_week).toBeGreaterThan(0.7);
    expect(v.in_week).toBeLessThan(1);
    expect(v.out_of_range).toBe(0);
    expect(v.on_unlaunched).toBe(0);
  });

  test('awards exist for past weeks and agree with weekly_ranking', async () => {
    const a = await one(sql`
      select count(*)::int as awards, count(distinct week)::int as weeks,
             count(*) filter (where not exists (select 1 from weekly_ranking r where r.listing_id = a.listing_id
                              and r.site_id = a.site_id and r.week = a.week and r.rank = a.rank and r.votes = a.votes))::int as disagree,
             count(*) filter (where week >= date_trunc('week', now() at time zone 'utc')::date)::int as unfinished
      from awards a where site_id = ${siteId}`);
    expect(a.weeks).toBeGreaterThanOrEqual(12);
    expect(a.awards).toBe(a.weeks * 3);
    expect(a.disagree).toBe(0);
    expect(a.unfinished).toBe(0);
    const missing = await sql`
      select r.week from weekly_ranking r where r.site_id = ${siteId} and r.rank = 1 and r.votes > 0
        and r.week + 7 <= (now() at time zone 'utc')::date
        and not exists (select 1 from awards a where a.site_id = r.site_id and a.week = r.week and a.rank = 1)`;
    expect(missing).toHaveLength(0);
    const [other] = await sql`select count(*)::int as n from awards where site_id <> ${siteId}`;
    expect(other.n).toBeGreaterThan(0); // the other sites have their own awards
  });

  test('every listing has one primary category, matching primary_category_id; extras only on paid listings', async () => {
    const p = await one(sql`
      select count(*) filter (where l.primary_category_id is null or lc.category_id is distinct from l.primary_category_id)::int as bad,
             (select count(*) from listing_categories x join listings y on y.id = x.listing_id where not x.is_primary and y.plan <> 'paid')::int as free_extras,
             (select count(*) from listing_categories x where not x.is_primary)::int as extras
      from listings l left join listing_categories lc on lc.listing_id = l.id and lc.is_primary`);
    expect(p.bad).toBe(0);
    expect(p.free_extras).toBe(0);
    expect(p.extras).toBeGreaterThan(10);
  });

  test('listing attributes are keys of the primary category, some left empty', async () => {
    const a = await one(sql`
      select count(*) filter (where exists (select 1 from jsonb_object_keys(l.attributes) k
                              where not exists (select 1 from jsonb_array_elements(c.attributes) ca where ca->>'key' = k)))::int as foreign_keys,
             count(*) filter (where (select count(*) from jsonb_object_keys(l.attributes)) < jsonb_array_length(c.attributes))::int as partial,
             count(*) filter (where l.attributes <> '{}')::int as with_values
      from listings l join categories c on c.id = l.primary_category_id where l.site_id = ${siteId}`);
    expect(a.foreign_keys).toBe(0);
    expect(a.partial).toBeGreaterThan(100);
    expect(a.with_values).toBeGreaterThan(250);
  });

  test('profiles are complete and paid sections have their rows', async () => {
    const r = await one(sql`
      select count(*) filter (where tagline is null or description is null or cardinality(features) = 0 or country !~ '^[A-Z]{2}$'
                              or pricing_model not in ('free', 'freemium', 'paid', 'open-source', 'usage-based')
                              or stage not in ('idea', 'pre-launch', 'launched', 'growing', 'established'))::int as incomplete,
             count(*) filter (where owner_user_id is not null)::int as owned,
             count(*) filter (where cardinality(not_found_on_website) > 0)::int as not_found,
             count(*) filter (where 'story' = any(unlocked_sections) and not exists (select 1 from founder_stories s where s.listing_id = l.id))::int as story_missing,
             count(*) filter (where 'milestones' = any(unlocked_sections) and not exists (select 1 from milestones m where m.listing_id = l.id))::int as milestones_missing,
             count(*) filter (where 'media' = any(unlocked_sections) and not exists (select 1 from listing_media m where m.listing_id = l.id))::int as media_missing,
             count(*) filter (where cardinality(unlocked_sections) > 0)::int as unlocked,
             count(*) filter (where not exists (select 1 from listing_faqs f where f.listing_id = l.id))::int as no_faqs,
             count(*) filter (where not exists (select 1 from listing_socials s where s.listing_id = l.id))::int as no_socials,
             count(*) filter (where not exists (select 1 from listing_founders f where f.listing_id = l.id and f.position = 0))::int as no_founder,
             count(*) filter (where exists (select 1 from listing_updates u where u.listing_id = l.id))::int as with_updates
      from listings l where site_id = ${siteId}`);
    expect(r).toMatchObject({ incomplete: 0, story_missing: 0, milestones_missing: 0, media_missing: 0, no_faqs: 0, no_socials: 0, no_founder: 0 });
    expect(r.owned).toBeGreaterThan(280);
    expect(r.not_found).toBeGreaterThan(20);
    expect(r.unlocked).toBeGreaterThan(15);
    expect(r.with_updates).toBeGreaterThan(30);
    const alt = await one(sql`
      select count(*) filter (where a.approved)::int as approved, count(*) filter (where not a.approved)::int as unapproved,
             count(*) filter (where l.primary_category_id <> o.primary_category_id)::int as cross_category
      from listing_alternatives a join listings l on l.id = a.listing_id join listings o on o.id = a.alternative_id`);
    expect(alt.approved).toBeGreaterThan(0);
    expect(alt.unapproved).toBeGreaterThan(0);
    expect(alt.cross_category).toBe(0);
  });

  test('people, ratings, metrics and content are in place', async () => {
    const r = await one(sql`
      select (select count(*) from founders)::int as founders,
             (select count(*) from users where email like '%@example.com')::int as users,
             (select count(*) from listing_stats s join (select listing_id, avg(rating)::float8 as raw from reviews group by listing_id) x
                on x.listing_id = s.listing_id where s.rating_avg is distinct from round(x.raw::numeric, 2)::float8)::int as rating_differs,
             (select count(*) from reviews where flagged)::int as flagged,
             (select count(distinct company_id) from domain_ratings)::int as rated_companies,
             (select min(n) from (select count(*) as n from domain_ratings group by company_id) d)::int as min_ratings,
             (select count(distinct company_id) from revenue_figures)::int as revenue_companies,
             (select count(*) from companies)::int as companies,
             (select count(distinct listing_id) from billboard_contributions)::int as billboard,
             (select count(*) from blog_posts)::int as posts,
             (select count(*) from interview_questions)::int as questions,
             (select count(*) from follows)::int as follows,
             (select count(*) from listing_views)::int as views`);
    expect(r.founders).toBeGreaterThanOrEqual(250);
    expect(r.users).toBeGreaterThanOrEqual(400);
    expect(r.rating_differs).toBeGreaterThan(0);
    expect(r.flagged).toBeGreaterThan(0);
    expect(r.rated_companies).toBe(r.companies);
    expect(r.min_ratings).toBe(12);
    expect(r.revenue_companies / r.companies).toBeGreaterThan(0.3);
    expect(r.revenue_companies / r.companies).toBeLessThan(0.5);
    expect(r.billboard).toBe(25);
    expect(r.posts).toBeGreaterThanOrEqual(12);
    expect(r.questions).toBeGreaterThanOrEqual(12);
    expect(r.follows).toBeGreaterThan(0);
    expect(r.views).toBeGreaterThan(0);
  });

  test('all nine products have a current price for the site; billboard_min states its minimum', async () => {
    const rows = await sql`
      select p.code, p.needs_week, p.options, cur.amount_cents, cur.min_amount_cents
      from products p
      left join lateral (select amount_cents, min_amount_cents from product_prices pp
                         where pp.product_code = p.code and pp.site_id = ${siteId} and pp.valid_from <= now()
                         order by valid_from desc limit 1) cur on true
      order by p.position`;
    expect(rows.map((r) => r.code).sort()).toEqual([
      'ai_review',
      'billboard_min',
      'done_for_you',
      'extra_categories',
      'featured',
      'launch',
      'launch_bundle',
      'relaunch',
      'skip_queue',
    ]);
    for (const r of rows) expect(Number(r.amount_cents)).toBeGreaterThan(0);
    expect(
      rows
        .filter((r) => r.needs_week)
        .map((r) => r.code)
        .sort(),
    ).toEqual(['relaunch', 'skip_queue']);
    const bb = rows.find((r) => r.code === 'billboard_min')!;
    expect(Number(bb.min_amount_cents)).toBe(Number(bb.amount_cents));
    expect(rows.find((r) => r.code === 'done_for_you')!.options.properties.notes.maxLength).toBe(500);
    expect(rows.find((r) => r.code === 'launch')!.amount_cents).toBe(4900n); // the newer of two prices
  });

  test('other sites of the network hold some of the same companies', async () => {
    const s = await one(sql`
      select count(distinct s.id)::int as sites, count(l.id)::int as listings,
             count(l.id) filter (where exists (select 1 from listings m where m.site_id = ${siteId} and m.company_id = l.company_id and m.slug = l.slug))::int as shared
      from sites s join listings l on l.site_id = s.id where not s.is_self`);
    expect(s.sites).toBe(2);
    expect(s.listings).toBeGreaterThan(0);
    expect(s.shared).toBe(s.listings);
  });

  test('refuses a database that already has data', async () => {
    await expect(seedDemo(sql, siteId)).rejects.toThrow(/empty database/);
  });
});

describe('determinism and the synthetic generator', () => {
  const fingerprint = (db: Sql, site: number) =>
    one(db`
    select (select md5(string_agg(concat_ws('|', slug, name, tagline, status, plan, launch_week, launched_at, attributes::text), ',' order by slug))
            from listings where site_id = ${site}) as listings,
           (select md5(string_agg(concat_ws('|', l.slug, u.email, v.created_at), ',' order by l.slug, u.email))
            from votes v join listings l on l.id = v.listing_id join users u on u.id = v.user_id) as votes`);

  test('the same now gives the same data', async () => {
    const second = await seeded({ now });
    expect(await fingerprint(second.db.sql, second.siteId)).toEqual(await fingerprint(sql, siteId));
  }, 60_000);

  test('another now gives the same listings (slugs, names, statuses), shifted in time', async () => {
    const other = await seeded({ now: new Date(now.getTime() - 10 * 86_400_000) });
    const rows = (s: Sql, id: number) => s`select slug, name, status, plan from listings where site_id = ${id} order by slug`;
    expect(await rows(other.db.sql, other.siteId)).toEqual(await rows(sql, siteId));
  }, 60_000);

  test('on an empty database, synthetic seeds the demo first', async () => {
    const db = await freshDatabase();
    dbs.push(db);
    const site = await ensureSite(db.sql, 'main', 'http://127.0.0.1:3000');
    const r = await seedSynthetic(db.sql, site.id, 200);
    expect(r.listings).toBe(200);
    const [c] = await db.sql`select count(*) filter (where domain like '%.synthetic.example')::int as synthetic,
                                    count(*) filter (where domain not like '%.synthetic.example')::int as demo
                             from listings where site_id = ${site.id}`;
    expect(c).toEqual({ synthetic: 200, demo: 340 });
  }, 60_000);

  test('synthetic with n=500 adds 500 listings with categories, votes and consistent awards', async () => {
    const [before] = await sql`select count(*)::int as n from listings where site_id = ${siteId}`;
    const awardsBefore = await sql`select site_id, week, rank, listing_id, votes from awards order by 1, 2, 3`;
    const r = await seedSynthetic(sql, siteId, 500);
    console.log(`seedSynthetic(500): ${r.votes} votes, ${r.follows} follows in ${r.ms} ms`);
    const c = await one(sql`
      select (select count(*) from listings where site_id = ${siteId})::int as n,
             count(*) filter (where l.status = 'live')::int as live,
             count(*) filter (where l.status not in ('live', 'scheduled'))::int as other,
             count(*) filter (where not exists (select 1 from listing_categories lc where lc.listing_id = l.id and lc.is_primary
                                                and lc.category_id = l.primary_category_id))::int as no_category,
             count(*) filter (where l.status = 'live' and (l.launched_at < l.launch_week::timestamp at time zone 'utc'
                               or l.launched_at >= (l.launch_week + 7)::timestamp at time zone 'utc' or l.launched_at > now()))::int as bad_launch,
             (select count(*) from votes v join listings x on x.id = v.listing_id where x.domain like '%.synthetic.example')::int as votes,
             (select count(*) from awards a where not exists (select 1 from weekly_ranking w where w.listing_id = a.listing_id
                and w.week = a.week and w.rank = a.rank and w.votes = a.votes))::int as disagree
      from listings l where l.site_id = ${siteId} and l.domain like '%.synthetic.example'`);
    expect(c.n).toBe(before.n + 500);
    // Vacuumed and analyzed at the end, not left to autovacuum: the filled tables and those the refresh wrote.
    const upkeep = await sql`select relname, last_vacuum is not null as vacuumed, last_analyze is not null as analyzed from pg_stat_user_tables
                where relname in ('listings', 'votes', 'listing_stats', 'search_lexemes') order by relname`;
    expect([...upkeep]).toEqual(['listing_stats', 'listings', 'search_lexemes', 'votes'].map((relname) => ({ relname, vacuumed: true, analyzed: true })));
    // The fill commits synchronously even on this cluster (synchronous_commit off), and nothing
    // commits between it and the VACUUM: every page of what it wrote is marked all-visible.
    const visible = await sql`select relname, relallvisible = relpages as all_visible from pg_class
                              where relname in ('listings', 'votes', 'listing_stats', 'search_lexemes') order by relname`;
    expect([...visible]).toEqual(['listing_stats', 'listings', 'search_lexemes', 'votes'].map((relname) => ({ relname, all_visible: true })));
    // The fill loads with the search indexes' pending lists on and leaves every one off again (0020).
    const [{ pending }] = await sql`select count(*)::int as pending from pg_class c join pg_am a on a.oid = c.relam and a.amname = 'gin'
      where c.relkind = 'i' and c.relnamespace = current_schema()::regnamespace and not coalesce(c.reloptions @> '{fastupdate=off}', false)`;
    expect(pending).toBe(0);
    // Every live listing's profile is stored, as built now (migration 0021).
    const [docs] = await sql`select count(*)::int as live, count(d.body)::int as stored,
        count(*) filter (where d.body::text is distinct from listing_document(l.id)::text)::int as differ
      from listings l left join listing_documents d on d.listing_id = l.id where l.site_id = ${siteId} and l.status = 'live'`;
    expect(docs).toEqual({ live: docs.live, stored: docs.live, differ: 0 });
    expect(c.live).toBeGreaterThan(350);
    expect(c).toMatchObject({ other: 0, no_category: 0, bad_launch: 0, disagree: 0 });
    expect(c.votes).toBe(r.votes);
    expect(c.votes / c.live).toBeGreaterThan(5);
    expect(c.votes / c.live).toBeLessThan(20);
    // Awarded weeks are final: their awards stay, new ones only fill weeks that had none.
    const awardsAfter = await sql`select site_id, week, rank, listing_id, votes from awards order by 1, 2, 3`;
    const key = (a: any) => `${a.site_id}/${a.week.toISOString()}/${a.rank}`;
    const oldWeeks = new Set(awardsBefore.map((a) => `${a.site_id}/${a.week.toISOString()}`));
    expect(awardsAfter.filter((a) => oldWeeks.has(`${a.site_id}/${a.week.toISOString()}`))).toEqual([...awardsBefore]);
    expect(awardsAfter.length - awardsBefore.length).toBe(r.awards);
    expect(r.awards).toBeGreaterThan(0);
    expect(new Set(awardsAfter.map(key)).size).toBe(awardsAfter.length);
  }, 60_000);

  test('names grow with the directory: one infix per 100k listings, never one typo apart', async () => {
    expect(nameInfixes(500)).toEqual(['']);
    expect(nameInfixes(100_000)).toEqual(['']);
    expect(nameInfixes(1_000_000)).toHaveLength(10);
    expect(nameInfixes(10_000_000)).toHaveLength(16);
    // Two infixes differ in at least two letters, so Quill+bar+stack and Quill+ken+stack are two typos apart.
    const all = nameInfixes(10_000_000).filter(Boolean);
    for (const a of all) for (const b of all) if (a !== b) expect([...a].filter((ch, i) => b[i] !== ch).length).toBeGreaterThanOrEqual(2);
    // 4,000 names drawn with a million's infixes: more distinct than heads × tails (1,680) allow.
    const leaves = (await sql`select id from categories where parent_id is not null`).map((r) => Number(r.id));
    // The plan is temp tables dropped at commit: nothing is inserted.
    const bases = await transaction(sql, async (tx) => {
      await planSynthetic(tx, siteId, 4000, leaves, nameInfixes(1_000_000));
      return (await tx`select count(distinct base)::int as n from synth`)[0].n as number;
    });
    expect(bases).toBeGreaterThan(1680);
  }, 60_000);
});
