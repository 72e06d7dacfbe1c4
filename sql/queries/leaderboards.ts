import type { Sql } from '../db.ts';
import type postgres from 'postgres';
import { isLive, type RankingPage, weekRanking } from './launches.ts';

export const BOARDS = ['community-weekly', 'community-all-time', 'billboard', 'domain-rating', 'revenue'] as const;
export type Board = (typeof BOARDS)[number];

/** The board's view and the metric columns an item shows (fixed SQL, never input). */
const BOARD_VIEW: Record<'billboard' | 'revenue', { view: string; columns: string }> = {
  // Sums can pass 2^31 cents; float8 keeps them exact up to 2^53 and arrives as a JS number.
  billboard: { view: 'mv_board_billboard', columns: 'b.amount_cents::float8 as metric_num, b.currency, b.contributions' },
  revenue: {
    view: 'mv_board_revenue',
    columns: `b.mrr_cents::float8 as metric_num, b.currency, to_char(b.month, 'YYYY-MM-DD') as month, b.verified, b.source, b.mrr_usd_cents::float8 as usd_cents`,
  },
};

/**
 * Boards ranked as they are read: their rows as of the last refresh with a rank, the order that
 * rank follows (on the ranked rows, b), and the columns an item shows.
 */
const READ_RANKED = {
  'community-all-time': {
    ranked: (sql: Sql, siteId: number) => sql`
      select s.listing_id, s.votes, row_number() over (order by s.votes desc, s.listing_id)::int as rank
      from listing_stats s where s.site_id = ${siteId} and s.live and s.votes > 0`,
    order: 'b.votes desc, b.listing_id',
    columns: 'b.votes::float8 as metric_num',
  },
  'domain-rating': {
    ranked: (sql: Sql, siteId: number) => sql`
      select s.listing_id, s.rating, s.trend, s.measured_on, row_number() over (order by s.rating desc, s.listing_id)::int as rank
      from listing_domain_rating s where s.site_id = ${siteId} and s.live`,
    order: 'b.rating desc, b.listing_id',
    columns: `b.rating::float8 as metric_num, b.trend, to_char(b.measured_on, 'YYYY-MM-DD') as measured_on`,
  },
} as const;

/**
 * One page of a board (listing_id, pos, rank and the board's metric columns). Every board reads its
 * ranking in rank order and re-checks, for the rows it reads, that the listing is still live; the
 * total is the ranking's size as of its last refresh.
 */
export function boardRanking(sql: Sql, siteId: number, board: Board, week: string | null, page: postgres.Fragment): RankingPage {
  if (board === 'community-weekly') {
    const ranked = weekRanking(sql, siteId, sql`${week}::date`, page);
    return {
      total: ranked.total,
      rows: sql`select b.listing_id, b.rank, b.rank as pos, b.votes::float8 as metric_num from (${ranked.rows}) b order by b.rank`,
    };
  }
  if (board === 'community-all-time' || board === 'domain-rating') {
    // Ranked as read (a stored rank would shift for every listing one passes), over the board as
    // of the last refresh like the other boards; the liveness check applies after ranking, so the
    // others keep their ranks. A partial index holds each board in this order, so a page walks it
    // and stops.
    const { ranked, order, columns } = READ_RANKED[board];
    return {
      total: sql`select total from board_totals where site_id = ${siteId} and board = ${board}`,
      rows: sql`
        select b.listing_id, b.rank, b.rank as pos, ${sql.unsafe(columns)}
        from (${ranked(sql, siteId)}) b
        where ${isLive(sql, sql`b.listing_id`)}
        order by ${sql.unsafe(order)} ${page}`,
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
