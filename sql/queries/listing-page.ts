import type { Sql } from '../db.ts';
import { badgeRows, type BadgeRow } from './badges.ts';

export interface PublicReview {
  id: number;
  rating: number;
  body: string | null;
  author: string;
  created_at: string;
  updated_at: string;
  by_owner: boolean;
  /** The owner's one public answer, shown under the review. */
  owner_reply: string | null;
  owner_reply_at: string | null;
}

/** What a listing page shows beside the listing's profile (get_listing) and its alternatives. */
export interface ListingPageParts {
  id: number;
  slug: string;
  name: string;
  /** As get_badges reads them (listing_badge_rows). */
  badges: BadgeRow[];
  /** The 20 newest shown, newest first (listing_page_reviews). */
  reviews: PublicReview[];
}

/**
 * The page parts of these slugs' live listings of this site, in the slugs' order (undefined where
 * none is live here). One statement for any number of slugs, so the pages a turn renders share it
 * as get_listing's misses share theirs; the slugs are read through a sub-select for the reason
 * profileParts gives (one cached plan).
 */
export async function listingPageParts(sql: Sql, siteId: number, slugs: readonly string[]): Promise<(ListingPageParts | undefined)[]> {
  const rows = await sql<ListingPageParts[]>`
    select l.id::int as id, l.slug, l.name, ${badgeRows(sql)} as badges, listing_page_reviews(l.id, l.owner_user_id, 20) as reviews
    from listings l
    left join listing_stats s on s.listing_id = l.id
    where l.site_id = ${siteId} and l.slug = any((select ${slugs as string[]}::text[])::text[]) and l.status = 'live'`;
  const bySlug = new Map(rows.map((row) => [row.slug, row]));
  return slugs.map((slug) => bySlug.get(slug));
}
