import type { Sql } from '../db.ts';

// Timestamps go out as ISO strings in UTC, dates as YYYY-MM-DD.
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS"Z"'`;

export interface ListingProfileRow {
  id: number;
  slug: string;
  name: string;
  url: string;
  domain: string;
  profile_url: string;
  tagline: string | null;
  short_description: string | null;
  description: string | null;
  headline: string | null;
  summary: string | null;
  features: string[];
  usps: string[];
  keywords: string[];
  pricing: { model: string | null; summary: string | null };
  stage: string | null;
  country: string | null;
  city: string | null;
  founded_year: number | null;
  demo_video_url: string | null;
  contact_email: string | null;
  logo_url: string | null;
  seo: { title: string | null; description: string | null };
  categories: { slug: string; name: string; primary: boolean; parent: { slug: string; name: string } | null }[];
  founders: { slug: string; name: string; title: string | null; avatar_url: string | null; socials: Record<string, string>; primary: boolean }[];
  faqs: { question: string; answer: string }[];
  socials: Record<string, string>;
  latest_updates: { id: number; title: string; body: string; created_at: string }[];
  community_rating: { average: number | null; count: number };
  domain_rating: { rating: number; trend: number | null; measured_on: string; history: { measured_on: string; rating: number }[] } | null;
  links: { website: string; profile: string; badges: string; alternatives: string };
  votes: number;
  follows: number;
  views: number;
  launch_week: string | null;
  launched_at: string | null;
  plan: string;
  not_found_on_website: string[];
  story: {
    title: string | null;
    story: string | null;
    why_started: string | null;
    problem: string | null;
    journey: string | null;
    challenges: string | null;
    achievements: string | null;
    lessons: string | null;
    whats_next: string | null;
    updated_at: string;
  } | null;
  milestones: { id: number; date: string; title: string; description: string | null; url: string | null }[] | null;
  media: { kind: 'image' | 'video'; url: string; caption: string | null }[] | null;
  featured_until: string | null;
  ai_review: { body: string; quotes: { quote: string; url: string }[]; created_at: string } | null;
}

/**
 * The public profile of a live listing of this site, in one statement: related rows come back as
 * JSON aggregates. Paid sections (story, milestones, media) are null unless unlocked.
 */
export async function listingProfile(sql: Sql, siteId: number, slug: string, siteUrl: string): Promise<ListingProfileRow | undefined> {
  const iso = sql.unsafe(ISO);
  const [row] = await sql<ListingProfileRow[]>`
    select l.id::int as id, l.slug, l.name, l.url, l.domain, ${siteUrl + '/listings/'} || l.slug as profile_url,
      l.tagline, l.short_description, l.description, l.headline, l.summary, l.features, l.usps, l.keywords,
      json_build_object('model', l.pricing_model, 'summary', l.pricing_summary) as pricing,
      l.stage, l.country, l.city, l.founded_year, l.demo_video_url, l.contact_email, l.logo_url,
      json_build_object('title', l.seo_title, 'description', l.seo_description) as seo,
      (select coalesce(json_agg(json_build_object('slug', c.slug, 'name', c.name, 'primary', c.id = pc.id,
                'parent', case when p.id is null then null else json_build_object('slug', p.slug, 'name', p.name) end)
              order by c.id = pc.id desc, c.position, c.name), '[]')
       from (select pc.id union select lc.category_id from listing_categories lc where lc.listing_id = l.id) k (id)
       join categories c on c.id = k.id left join categories p on p.id = c.parent_id) as categories,
      (select coalesce(json_agg(json_build_object('slug', f.slug, 'name', f.name, 'title', f.title, 'avatar_url', f.avatar_url,
                'socials', f.socials, 'primary', f.n = 1) order by f.n), '[]')
       from (select fo.slug, fo.name, coalesce(lf.role, fo.title) as title, fo.avatar_url, fo.socials,
                    row_number() over (order by lf.position, fo.id) as n
             from listing_founders lf join founders fo on fo.id = lf.founder_id where lf.listing_id = l.id) f) as founders,
      (select coalesce(json_agg(json_build_object('question', q.question, 'answer', q.answer) order by q.position, q.id), '[]')
       from listing_faqs q where q.listing_id = l.id) as faqs,
      (select coalesce(json_object_agg(so.platform, so.url order by so.platform), '{}')
       from listing_socials so where so.listing_id = l.id) as socials,
      (select coalesce(json_agg(json_build_object('id', u.id, 'title', u.title, 'body', u.body,
                'created_at', to_char(u.created_at at time zone 'utc', ${iso})) order by u.created_at desc, u.id desc), '[]')
       from (select * from listing_updates where listing_id = l.id order by created_at desc, id desc limit 5) u) as latest_updates,
      json_build_object('average', s.rating_avg, 'count', coalesce(s.rating_count, 0)) as community_rating,
      case when dr.rating is null then null else json_build_object(
        'rating', dr.rating, 'measured_on', to_char(dr.measured_on, 'YYYY-MM-DD'), 'trend', dr.rating - dr_prev.rating,
        'history', (select json_agg(json_build_object('measured_on', to_char(h.measured_on, 'YYYY-MM-DD'), 'rating', h.rating) order by h.measured_on)
                    from (select measured_on, rating from domain_ratings where company_id = l.company_id
                          order by measured_on desc limit 12) h)) end as domain_rating,
      json_build_object('website', l.url, 'profile', ${siteUrl + '/listings/'} || l.slug,
        'badges', ${siteUrl + '/api/v1/listings/'} || l.slug || '/badges',
        'alternatives', ${siteUrl + '/api/v1/listings/'} || l.slug || '/alternatives') as links,
      coalesce(s.votes, 0)::int as votes, coalesce(s.follows, 0)::int as follows, coalesce(s.views, 0)::int as views,
      to_char(l.launch_week, 'YYYY-MM-DD') as launch_week, to_char(l.launched_at at time zone 'utc', ${iso}) as launched_at,
      l.plan, l.not_found_on_website,
      case when 'story' = any(l.unlocked_sections) then (
        select json_build_object('title', fs.title, 'story', fs.story, 'why_started', fs.why_started, 'problem', fs.problem,
                 'journey', fs.journey, 'challenges', fs.challenges, 'achievements', fs.achievements, 'lessons', fs.lessons,
                 'whats_next', fs.whats_next, 'updated_at', to_char(fs.updated_at at time zone 'utc', ${iso}))
        from founder_stories fs where fs.listing_id = l.id) end as story,
      case when 'milestones' = any(l.unlocked_sections) then (
        select coalesce(json_agg(json_build_object('id', m.id, 'date', to_char(m.date, 'YYYY-MM-DD'), 'title', m.title,
                 'description', m.description, 'url', m.url) order by m.date desc, m.id desc), '[]')
        from milestones m where m.listing_id = l.id) end as milestones,
      case when 'media' = any(l.unlocked_sections) then (
        select coalesce(json_agg(json_build_object('kind', me.kind, 'url', me.url, 'caption', me.caption) order by me.position, me.id), '[]')
        from listing_media me where me.listing_id = l.id) end as media,
      (select to_char(max(f.ends_at) at time zone 'utc', ${iso}) from listing_featured f
       where f.listing_id = l.id and now() >= f.starts_at and now() < f.ends_at) as featured_until,
      (select json_build_object('body', r.body, 'quotes', r.quotes, 'created_at', to_char(r.created_at at time zone 'utc', ${iso}))
       from listing_ai_reviews r where r.listing_id = l.id and not r.hidden order by r.created_at desc, r.id desc limit 1) as ai_review
    from listings l
    -- The primary category: the listing's column, else the listing_categories row marked primary.
    cross join lateral (select coalesce(l.primary_category_id,
      (select lc.category_id from listing_categories lc where lc.listing_id = l.id and lc.is_primary)) as id) pc
    left join listing_stats s on s.listing_id = l.id
    -- Domain Rating: the latest measurement and, for the trend, the latest one at least 28 days older
    -- (the same rule as the domain-rating leaderboard).
    left join lateral (select rating, measured_on from domain_ratings where company_id = l.company_id
                       order by measured_on desc limit 1) dr on true
    left join lateral (select rating from domain_ratings where company_id = l.company_id and measured_on <= dr.measured_on - 28
                       order by measured_on desc limit 1) dr_prev on true
    where l.site_id = ${siteId} and l.slug = ${slug} and l.status = 'live'`;
  return row;
}
