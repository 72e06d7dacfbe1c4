import type { Sql } from '../db.ts';
import { exactListingCount } from './listing-counts.ts';

/** The site's counts: listings from listing_counts and its pending moves (exact), founders of live listings. */
export async function siteInfo(sql: Sql, siteId: number) {
  const [row] = await sql<{ live_listings: number; upcoming_listings: number; categories: number; founders: number }[]>`
    select ${sql.unsafe(exactListingCount(siteId, 'live'))} as live_listings,
           ${sql.unsafe(exactListingCount(siteId, 'scheduled'))} as upcoming_listings,
           (select count(*) from categories)::int as categories,
           (select count(distinct lf.founder_id) from listing_founders lf join listings l on l.id = lf.listing_id
             where l.site_id = ${siteId} and l.status = 'live')::int as founders`;
  return row;
}
