import type { Sql } from '../db.ts';
import { literalInt, offsetOf, pageBounds } from './summaries.ts';

export interface UpdateRow {
  id: number;
  title: string;
  body: string;
  created_at: string;
  listing_slug: string;
  listing_name: string;
}

/**
 * The newest "what's new" updates of live listings of a site, newest first (the home page, the
 * latest-updates page and the feeds). No total: no reader shows one, and counting every update of
 * every live listing grew with the updates ever posted. One row past the page says whether there is
 * more. Site-wide, the page walks listing_updates_newest (migration 0017) and stops at its end; for
 * one listing, listing_updates_listing. The bounds and the site are written into the statement
 * (pageBounds), so the site-wide read has nothing to plan for and its plan is cached.
 */
export async function latestUpdates(sql: Sql, siteId: number, page: number, perPage: number, listingSlug?: string) {
  const rows = await sql<UpdateRow[]>`
    select u.id::int as id, u.title, u.body, to_char(u.created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at,
           l.slug as listing_slug, l.name as listing_name
    from listing_updates u join listings l on l.id = u.listing_id
    where l.site_id = ${literalInt(sql, siteId)} and l.status = 'live' ${listingSlug ? sql`and l.slug = ${listingSlug}` : sql``}
    order by u.created_at desc, u.id desc
    ${pageBounds(sql, perPage + 1, offsetOf(page, perPage))}`;
  return { items: rows.slice(0, perPage), page, per_page: perPage, has_more: rows.length > perPage };
}
