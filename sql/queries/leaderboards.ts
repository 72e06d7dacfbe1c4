import type { Sql } from '../db.ts';
import type postgres from 'postgres';
import { isLive, type RankingPage } from './launches.ts';

export const BOARDS = ['community-weekly', 'community-all-time', 'billboard', 'domain-rating', 'revenue'] as const;
export type Board = (typeof BOARDS)[number];

/** The board's view and the metric columns an item shows (fixed SQL, never input). */
const BOARD_VIEW: Record<Exclude<Board, 'community-weekly'>, { view: string; columns: string }> = {
  'community-all-time': { view: 'mv_board_all_time', columns: 'b.votes::float8 as metric_num' },
  // Sums can pass 2^31 cents; float8 keeps them exact up to 2^53 and arrives as a JS number.
  billboard: { view: 'mv_board_billboard', columns: 'b.amount_cents::float8 as metric_num, b.currency, b.contributions' },
  'domain-rating': {
    view: 'mv_board_domain_rating',
    columns: `b.rating::float8 as metric_num, b.trend, to_char(b.measured_on, 'YYYY-MM-DD') as measured_on`,
  },
  revenue: {
    view: 'mv_board_revenue',
    columns: `b.mrr_cents::float8 as metric_num, b.currency, to_char(b.month, 'YYYY-MM-DD') as month, b.verified`,
  },
};

/**
 * One page of a board (listing_id, pos, rank and the board's metric columns). Every board reads its
 * materialized view in rank order and re-checks, for the rows it reads, that the listing is still
 * live; the total is the view's size as of its last refresh.
 */
export function boardRanking(sql: Sql, siteId: number, board: Board, week: string | null, page: postgres.Fragment): RankingPage {
  if (board === 'community-weekly') {
    return {
      total: sql`select total from mv_weekly_ranking where site_id = ${siteId} and week = ${week}::date order by rank limit 1`,
      rows: sql`
        select b.listing_id, b.rank, b.rank as pos, b.votes::float8 as metric_num
        from mv_weekly_ranking b
        where b.site_id = ${siteId} and b.week = ${week}::date and ${isLive(sql, sql`b.listing_id`)}
        order by b.rank ${page}`,
    };
  }
  const { view, columns } = BOARD_VIEW[board];
  return {
    total: sql`select total from ${sql.unsafe(view)} where site_id = ${siteId} order by rank limit 1`,
    rows: sql`
      select b.listing_id, b.rank, b.rank as pos, ${sql.unsafe(columns)}
      from ${sql.unsafe(view)} b
      where b.site_id = ${siteId} and ${isLive(sql, sql`b.listing_id`)}
      order by b.rank ${page}`,
  };
}
