import type { Sql } from '../db.ts';
import { pageBounds, RANKING_SQL, rankingPage, type RankingResult, type RankingStatement } from './rankings.ts';

export const BOARDS = ['community-weekly', 'community-all-time', 'billboard', 'domain-rating', 'revenue'] as const;
export type Board = (typeof BOARDS)[number];

/**
 * A board's statement: community-weekly is the week's ranking (ranking-week.sql), the others
 * ranking-board.sql. Every board reads its ranking as of its last refresh in rank order and
 * re-checks, for the rows it reads, that the listing is still live.
 */
export function boardStatement(siteId: number, board: Board, week: string | null, page: number, perPage: number): RankingStatement {
  if (board === 'community-weekly') return { text: RANKING_SQL.week, values: [siteId, week, ...pageBounds(page, perPage)] };
  return { text: RANKING_SQL.board, values: [siteId, board, ...pageBounds(page, perPage)] };
}

/** One page of a board (listing_id, rank and the board's metric columns), and its size. */
export async function boardPage(sql: Sql, siteId: number, board: Board, week: string | null, page: number, perPage: number): Promise<RankingResult> {
  const ranked = await rankingPage(sql, boardStatement(siteId, board, week, page, perPage));
  if (board !== 'community-weekly') return ranked;
  return { total: ranked.total, rows: ranked.rows.map((r) => ({ ...r, metric_num: r.votes })) };
}
