import type { Sql } from '../db.ts';

/**
 * Launch of the Week awards of live listings on this site, newest week first, then rank; with a
 * listing slug, only that listing's. A query fragment for pagedRanking (so not async: awaiting runs it).
 */
export function awardsSelection(sql: Sql, siteId: number, listingSlug: string | undefined) {
  const bySlug = listingSlug === undefined ? sql`` : sql`and l.slug = ${listingSlug}`;
  return sql`
    select a.listing_id, a.rank, a.votes, to_char(a.week, 'YYYY-MM-DD') as week,
           to_char(a.week + 6, 'YYYY-MM-DD') as week_end,
           row_number() over (order by a.week desc, a.rank asc)::int as pos
    from awards a join listings l on l.id = a.listing_id and l.site_id = a.site_id and l.status = 'live'
    where a.site_id = ${siteId} ${bySlug}`;
}
