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
  /** As get_badges reads them (badgeRows). */
  badges: BadgeRow[];
  /**
   * The 20 newest shown, newest first, each with the owner's reply. Hidden reviews (enough flags, or
   * removed by the site team) and those of suspended accounts are left out; reviews by the listing's
   * owner from before owners were refused are shown but marked (they never count).
   */
  reviews: PublicReview[];
}

/**
 * The page parts of these slugs' live listings of this site, in the slugs' order (undefined where
 * none is live here). One statement for any number of slugs, so the pages a turn renders share it
 * as get_listing's misses share theirs; the slugs are read through a sub-select for the reason
 * profileParts gives (one cached plan).
 */
export async function listingPageParts(sql: Sql, siteId: number, slugs: readonly string[]): Promise<(ListingPageParts | undefined)[]> {
  const iso = sql.unsafe(`'YYYY-MM-DD"T"HH24:MI:SS"Z"'`);
  const rows = await sql<ListingPageParts[]>`
    select l.id::int as id, l.slug, l.name, ${badgeRows(sql)} as badges,
      (select coalesce(json_agg(json_build_object(
                 'id', r.id, 'rating', r.rating, 'body', r.body, 'author', coalesce(nullif(r.name, ''), 'A member'),
                 'created_at', to_char(r.created_at at time zone 'utc', ${iso}), 'updated_at', to_char(r.updated_at at time zone 'utc', ${iso}),
                 'by_owner', r.user_id is not distinct from l.owner_user_id, 'owner_reply', r.owner_reply,
                 'owner_reply_at', to_char(r.owner_reply_at at time zone 'utc', ${iso}))
               order by r.created_at desc, r.id desc), '[]'::json)
       from (select r.*, u.name from reviews r join users u on u.id = r.user_id
             where r.listing_id = l.id and not r.flagged and u.suspended_at is null
             order by r.created_at desc, r.id desc limit 20) r) as reviews
    from listings l
    left join listing_stats s on s.listing_id = l.id
    where l.site_id = ${siteId} and l.slug = any((select ${slugs as string[]}::text[])::text[]) and l.status = 'live'`;
  const bySlug = new Map(rows.map((row) => [row.slug, row]));
  return slugs.map((slug) => bySlug.get(slug));
}
