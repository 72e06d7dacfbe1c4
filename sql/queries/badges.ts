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
 * "Listed on" embed code to go live. The rules (listing_badge_rows in sql/functions/70_listing_page.sql):
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

/** The badge rows of listing `l` with its counters `s` (listing_badge_rows, sql/functions/70_listing_page.sql). */
export const badgeRows = (sql: Sql) => sql`listing_badge_rows(l, s, ${TOP_RATED_MIN_REVIEWS}::int, ${TOP_RATED_MIN_AVG}::float8)`;
