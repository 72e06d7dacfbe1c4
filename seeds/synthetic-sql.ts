// Set-based SQL for the synthetic load-test data: every table is filled by one insert ... select.
import type { Sql } from '../sql/db.ts';
import { ADJECTIVES, NAME_HEADS, NAME_TAILS, PLACES, USPS } from './demo-data/words.ts';

const SUFFIXES = ['Cloud', 'Labs', 'AI', 'HQ', 'Pro', 'Studio', 'Kit', 'OS', 'Works', 'One', 'Go', 'Base'];
const AUDIENCES = ['small teams', 'freelancers', 'developers', 'agencies', 'startups', 'enterprises', 'creators', 'students'];
const PRICING = ['freemium', 'paid', 'free', 'open-source', 'usage-based'];

/**
 * Syllables set between a name's head and tail ("Quill" + "bar" + "stack"), so that the number of
 * distinct names grows with the directory as a real one's does: heads × tails alone give 1,680
 * names, which at a million listings made every name a 600-way duplicate and every one-typo name
 * search ten times the matches of the same search at 100k (it measured the corpus, not the
 * index). First letters differ pairwise, and so do last letters, so two names of the same head and
 * tail are never one typo apart. The first is empty: up to 150k listings the names are those of
 * every earlier run.
 */
export const NAME_INFIXES = ['', 'bar', 'ken', 'dox', 'vil', 'mud', 'tas', 'gep', 'zof', 'lim', 'wuk', 'hab', 'ret', 'jog', 'niv', 'puz'];
/** About this many listings share a name's head, infix and tail (the 100k corpus's density). */
const LISTINGS_PER_NAME_INFIX = 100_000;

/** The infixes a fill of n listings draws from: one more per 100k listings, up to all 16. */
export function nameInfixes(n: number): string[] {
  return NAME_INFIXES.slice(0, Math.max(1, Math.round(n / LISTINGS_PER_NAME_INFIX)));
}

/** Random pick from a text[] parameter: `arr[1 + floor(random() * n)]`. */
const pickFrom = (sql: Sql, arr: string[]) => sql`(${arr}::text[])[1 + floor(random() * ${arr.length})::int]`;

/**
 * Plans n listings in a temp table (ids drawn from the sequences up front so every later insert can
 * refer to them): ~85% live, spread over every launch week of the site up to the current one, the
 * rest scheduled 1-8 weeks ahead. Awarded weeks are final, so launches placed in them get their
 * votes only after their week: the weekly ranking, and so its awards, stays as it was.
 */
export async function planSynthetic(sql: Sql, siteId: number, n: number, leafIds: number[], infixes = nameInfixes(n)) {
  await sql`
    create temp table synth_weeks on commit drop as
    select (row_number() over (order by w))::int as k, w::date as week,
           exists (select 1 from awards a where a.site_id = s.id and a.week = w::date) as awarded
    from sites s, generate_series(s.first_launch_week, date_trunc('week', now())::date, interval '1 week') w
    where s.id = ${siteId}`;
  const [{ weeks }] = await sql`select count(*)::int as weeks from synth_weeks`;
  if (weeks === 0) throw new Error('the site has no launch weeks yet (sites.first_launch_week is in the future)');
  await sql`
    create temp table synth on commit drop as
    select g as i,
           nextval('companies_id_seq') as company_id,
           nextval('listings_id_seq') as listing_id,
           ${pickFrom(sql, NAME_HEADS)} || ${pickFrom(sql, infixes)} || lower(${pickFrom(sql, NAME_TAILS)}) as base,
           ${pickFrom(sql, SUFFIXES)} as suffix,
           (${leafIds}::int[])[1 + floor(random() * ${leafIds.length})::int] as category_id,
           case when random() < 0.85 then 'live' else 'scheduled' end as status,
           1 + floor(random() * ${weeks})::int as week_k,
           1 + floor(random() * 8)::int as ahead,
           1 + floor(random() * ${PLACES.length})::int as place,
           least(floor(-ln(1 - random()) * 10)::int, 300) as votes_n,
           floor(random() * 4)::int as follows_n,
           random() as r
    from generate_series(1, ${n}) g`;
  await sql`
    alter table synth add column launch_week date, add column launched_at timestamptz, add column awarded boolean,
                      add column slug text, add column domain text`;
  await sql`
    update synth s set
      awarded = s.status = 'live' and w.awarded,
      launch_week = case when s.status = 'live' then w.week else date_trunc('week', now())::date + 7 * s.ahead end,
      launched_at = case when s.status = 'live'
                         then w.week + s.r * least(interval '7 days', now() - w.week) end,
      slug = lower(s.base) || '-' || lower(s.suffix) || '-' || s.listing_id,
      domain = lower(s.base) || '-' || lower(s.suffix) || '-' || s.listing_id || '.synthetic.example'
    from synth_weeks w where w.k = s.week_k`;
  await sql`create index on synth (listing_id)`;
  await sql`analyze synth`;
}

export async function insertSyntheticListings(sql: Sql, siteId: number) {
  const [countries, cities] = [PLACES.map((p) => p[0]), PLACES.map((p) => p[1])];
  await sql`
    insert into companies (id, name, domain, website_url, created_at)
    select company_id, base || ' ' || suffix, domain, 'https://' || domain, now() - interval '400 days' * r from synth`;
  await sql`
    insert into listings (id, site_id, company_id, slug, name, url, domain, logo_url, tagline, short_description, description,
                          stage, pricing_model, pricing_summary, country, city, founded_year, contact_email,
                          features, usps, keywords, status, plan, launch_week, launched_at, primary_category_id, created_at, updated_at)
    select s.listing_id, ${siteId}, s.company_id, s.slug, s.base || ' ' || s.suffix, 'https://' || s.domain, s.domain,
           'https://' || s.domain || '/logo.png',
           initcap(x.adj) || ' ' || x.cat || ' for ' || x.aud,
           s.base || ' ' || s.suffix || ' is a ' || x.adj || ' ' || x.cat || ' product for ' || x.aud || '.',
           s.base || ' ' || s.suffix || ' helps ' || x.aud || ' with ' || x.cat || '. ' || x.usp || '. '
             || 'Built in ' || (${cities}::text[])[s.place] || ' by a team that cares about ' || x.adj || ' software.',
           case when s.status = 'live' then (array['launched', 'growing', 'established'])[1 + floor(s.r * 3)::int]
                else (array['pre-launch', 'launched'])[1 + floor(s.r * 2)::int] end, x.pricing, 'See the website for current plans.',
           (${countries}::text[])[s.place], (${cities}::text[])[s.place], 2010 + floor(s.r * 16)::int,
           'hello@' || s.domain,
           array[x.usp, 'Works with ' || ${pickFrom(sql, ['Slack', 'GitHub', 'Zapier', 'Google Workspace'])}],
           array[x.usp], array[lower(x.cat), lower(s.base), x.adj],
           s.status, case when s.r < 0.2 then 'paid' else 'free' end, s.launch_week, s.launched_at, s.category_id,
           coalesce(s.launched_at, now()) - interval '30 days' * (1 + s.r),
           coalesce(s.launched_at, now())
    from synth s join categories c on c.id = s.category_id
    cross join lateral (select case when c.name ~ '^[A-Z/&]+$' then c.name else lower(c.name) end as cat,
                               ${pickFrom(sql, ADJECTIVES)} || left(s.slug, 0) as adj,
                               ${pickFrom(sql, AUDIENCES)} || left(s.slug, 0) as aud,
                               ${pickFrom(sql, USPS)} || left(s.slug, 0) as usp,
                               ${pickFrom(sql, PRICING)} || left(s.slug, 0) as pricing) x`;
  await sql`insert into listing_categories (listing_id, category_id, is_primary) select listing_id, category_id, true from synth`;
}

/** Synthetic voters, then votes (mostly in the launch week), follows, daily views and Domain Ratings. */
export async function insertSyntheticActivity(sql: Sql, users: number) {
  await sql`
    create temp table synth_users on commit drop as
    select k, nextval('users_id_seq') as id from generate_series(0, ${users - 1}) k`;
  await sql`create unique index on synth_users (k)`;
  await sql`
    insert into users (id, email, name, created_at)
    select id, 'synthetic-' || id || '@example.com', 'Synthetic voter ' || id, now() - interval '2 years' from synth_users`;
  // Distinct voters per listing: k = (start + j * stride) mod users, users prime, so j -> k is one-to-one.
  await sql`
    insert into votes (listing_id, user_id, created_at)
    select s.listing_id, u.id,
           case when s.awarded or (s.launch_week + 7 < now() and random() < 0.15)
                then (s.launch_week + 7) + random() * (now() - (s.launch_week + 7))
                else s.launched_at + random() * (least(now(), (s.launch_week + 7)::timestamptz) - s.launched_at) end
    from synth s cross join lateral generate_series(1, s.votes_n) j
    join synth_users u on u.k = (s.i::bigint * 7919 + j * (1 + s.i % ${users - 1})) % ${users}
    where s.status = 'live'`;
  await sql`
    insert into follows (listing_id, user_id, created_at)
    select s.listing_id, u.id, coalesce(s.launched_at, now() - interval '3 days') + random() * (now() - coalesce(s.launched_at, now() - interval '3 days'))
    from synth s cross join lateral generate_series(1, s.follows_n) j
    join synth_users u on u.k = (s.i::bigint * 104729 + j * (1 + s.i % ${users - 1}) + 17) % ${users}`;
  await sql`
    insert into listing_views (listing_id, day, views)
    select s.listing_id, s.launched_at::date + d, 1 + floor(random() * (5 + 3 * s.votes_n) / (1 + d))::int
    from synth s cross join lateral generate_series(0, least(3, current_date - s.launched_at::date)) d
    where s.status = 'live'`;
  // Three measurements four weeks apart give the board its latest value and trend.
  await sql`
    insert into domain_ratings (company_id, measured_on, rating)
    select s.company_id, date_trunc('week', now())::date - 14 * k,
           greatest(0, least(100, floor(5 + s.r * 60 + (2 - k) * (s.i % 7 - 2))::int))
    from synth s cross join generate_series(0, 2) k`;
}
