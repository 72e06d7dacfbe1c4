import type { Sql } from '../db.ts';

export async function siteInfo(sql: Sql, siteId: number) {
  const [row] = await sql<{ live_listings: number; upcoming_listings: number; categories: number; founders: number }[]>`
    select (select count(*) from listings where site_id = ${siteId} and status = 'live')::int as live_listings,
           (select count(*) from listings where site_id = ${siteId} and status = 'scheduled')::int as upcoming_listings,
           (select count(*) from categories)::int as categories,
           (select count(distinct lf.founder_id) from listing_founders lf join listings l on l.id = lf.listing_id
             where l.site_id = ${siteId} and l.status = 'live')::int as founders`;
  return row;
}
