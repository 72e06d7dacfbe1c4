import type { Sql } from '../db.ts';
import type postgres from 'postgres';
import type { RankingPage } from './launches.ts';

/**
 * One page of the Launch of the Week awards of live listings on this site, newest week first, then
 * rank; with a listing slug, only that listing's. Awards are three a week at most, so they are
 * counted and ordered exactly.
 */
export function awardsRanking(sql: Sql, siteId: number, listingSlug: string | undefined, page: postgres.Fragment): RankingPage {
  const from = sql`
    from awards a join listings l on l.id = a.listing_id and l.site_id = a.site_id and l.status = 'live'
    where a.site_id = ${siteId} ${listingSlug === undefined ? sql`` : sql`and l.slug = ${listingSlug}`}`;
  return {
    total: sql`select count(*) ${from}`,
    rows: sql`
      select a.listing_id, a.rank, a.votes, to_char(a.week, 'YYYY-MM-DD') as week,
             to_char(a.week + 6, 'YYYY-MM-DD') as week_end,
             row_number() over (order by a.week desc, a.rank asc)::int as pos
      ${from} order by a.week desc, a.rank asc ${page}`,
  };
}
