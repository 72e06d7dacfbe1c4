import type { Sql } from '../db.ts';

/** One badge a listing may show. rank/week for awards; rating for top-rated. */
export interface BadgeRow {
  kind: string;
  rank: number | null;
  week: string | null;
  rating_avg: number | null;
  rating_count: number | null;
}
export interface ListingBadges {
  id: number;
  slug: string;
  name: string;
  status: string;
  badges: BadgeRow[];
}

/** Top rated needs this many genuine reviews (not the owner's, not flagged) averaging at least TOP_RATED_MIN_AVG. */
export const TOP_RATED_MIN_REVIEWS = 5;
export const TOP_RATED_MIN_AVG = 4.5;

/**
 * The badges a listing of this site may show, in display order; null when the slug names no
 * listing here. Every status except draft has badges: an awaiting_badge listing needs its
 * "Listed on" embed code to go live. The rules (badgeRows below):
 *   listed     always
 *   launched   status = 'live'
 *   featured   plan = 'paid', or a bought featured period (listing_featured) is running
 *   verified   the listing's owner proved control of its domain (a verified DNS, meta tag or file claim; an
 *              e-mail claim makes a co-owner and earns no badge)
 *   top-rated  live, and the genuine community rating (listing_stats) meets the thresholds above
 *   award-W    one per Launch of the Week award (awards table), newest week first
 */
export async function listingBadges(sql: Sql, siteId: number, slug: string): Promise<ListingBadges | null> {
  const [row] = await sql<ListingBadges[]>`
    select l.id::int as id, l.slug, l.name, l.status, ${badgeRows(sql)} as badges
    from listings l
    left join listing_stats s on s.listing_id = l.id
    where l.site_id = ${siteId} and l.slug = ${slug} and l.status <> 'draft'`;
  return row ?? null;
}

/**
 * The badge rows of listing `l` with its counters `s` (left joined), as a JSON array in display
 * order: the rules above, written once for get_badges and the listing page. A sub-select each
 * statement embeds rather than a function: a SQL function's call cost the database three times the
 * sub-select's work on a page of listings.
 */
export const badgeRows = (sql: Sql) => sql`
  (select coalesce(json_agg(json_build_object('kind', b.kind, 'rank', b.rank, 'week', b.week,
                                             'rating_avg', b.rating_avg, 'rating_count', b.rating_count)
                           order by b.ord, b.week desc), '[]'::json)
   from (
     select 1 as ord, 'listed' as kind, null::int as rank, null::text as week, null::float8 as rating_avg, null::int as rating_count
     union all select 2, 'launched', null, null, null, null where l.status = 'live'
     union all select 3, 'featured', null, null, null, null
               where l.plan = 'paid' or exists (select 1 from listing_featured f where f.listing_id = l.id and now() >= f.starts_at and now() < f.ends_at)
     union all select 4, 'verified', null, null, null, null
               where exists (select 1 from company_owners co join claims c on c.id = co.claim_id
                             where co.company_id = l.company_id and co.user_id = l.owner_user_id and co.role = 'owner'
                               and c.status = 'verified' and c.method <> 'email')
     union all select 5, 'top-rated', null, null, s.rating_avg, s.rating_count
               where l.status = 'live' and s.rating_count >= ${TOP_RATED_MIN_REVIEWS} and s.rating_avg >= ${TOP_RATED_MIN_AVG}
     union all select 6, 'award-' || to_char(a.week, 'YYYY-MM-DD'), a.rank, to_char(a.week, 'YYYY-MM-DD'), null, null
               from awards a where a.listing_id = l.id and a.site_id = l.site_id
   ) b)`;
