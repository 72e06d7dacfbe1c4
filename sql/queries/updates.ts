import type { Sql } from '../db.ts';
import { offsetOf, pageInfo } from './summaries.ts';

export interface UpdateRow {
  id: number;
  title: string;
  body: string;
  created_at: string;
  listing_slug: string;
  listing_name: string;
}

/** The newest "what's new" updates of live listings of a site, newest first (the latest-updates page and its feed). */
export async function latestUpdates(sql: Sql, siteId: number, page: number, perPage: number, listingSlug?: string) {
  const rows = await sql<(UpdateRow & { total: number })[]>`
    select u.id::int as id, u.title, u.body, to_char(u.created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at,
           l.slug as listing_slug, l.name as listing_name, count(*) over ()::int as total
    from listing_updates u join listings l on l.id = u.listing_id
    where l.site_id = ${siteId} and l.status = 'live' ${listingSlug ? sql`and l.slug = ${listingSlug}` : sql``}
    order by u.created_at desc, u.id desc
    limit ${perPage} offset ${offsetOf(page, perPage)}`;
  const total = rows[0]?.total ?? 0;
  return { items: rows.map(({ total: _t, ...r }) => r), ...pageInfo(page, perPage, total) };
}
