import type { Sql } from '../db.ts';

export const BOARDS = ['community-weekly', 'community-all-time', 'billboard', 'domain-rating', 'revenue'] as const;
export type Board = (typeof BOARDS)[number];

/**
 * The ranked selection behind one board (listing_id, pos, rank and the board's metric columns).
 * Every board reads its materialized view and re-checks that the listing is still live on this site.
 */
export function boardRanking(sql: Sql, siteId: number, board: Board, week: string | null) {
  switch (board) {
    case 'community-weekly':
      return sql`
        select r.listing_id, r.rank, r.rank as pos, r.votes::float8 as metric_num
        from mv_weekly_ranking r join listings l on l.id = r.listing_id and l.status = 'live'
        where r.site_id = ${siteId} and r.week = ${week}::date`;
    case 'community-all-time':
      return sql`
        select b.listing_id, b.rank, b.rank as pos, b.votes::float8 as metric_num
        from mv_board_all_time b join listings l on l.id = b.listing_id and l.status = 'live'
        where b.site_id = ${siteId}`;
    case 'billboard':
      // Sums can pass 2^31 cents; float8 keeps them exact up to 2^53 and arrives as a JS number.
      return sql`
        select b.listing_id, b.rank, b.rank as pos, b.amount_cents::float8 as metric_num,
               b.currency, b.contributions
        from mv_board_billboard b join listings l on l.id = b.listing_id and l.status = 'live'
        where b.site_id = ${siteId}`;
    case 'domain-rating':
      return sql`
        select b.listing_id, b.rank, b.rank as pos, b.rating::float8 as metric_num,
               b.trend, to_char(b.measured_on, 'YYYY-MM-DD') as measured_on
        from mv_board_domain_rating b join listings l on l.id = b.listing_id and l.status = 'live'
        where b.site_id = ${siteId}`;
    case 'revenue':
      return sql`
        select b.listing_id, b.rank, b.rank as pos, b.mrr_cents::float8 as metric_num,
               b.currency, to_char(b.month, 'YYYY-MM-DD') as month, b.verified
        from mv_board_revenue b join listings l on l.id = b.listing_id and l.status = 'live'
        where b.site_id = ${siteId}`;
  }
}
