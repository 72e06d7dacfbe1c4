import type { Sql } from '../db.ts';
import { statementFile } from './statement-file.ts';
import { listingSummaries, offsetOf, type ListingSummaryRow } from './summaries.ts';

/**
 * The statements of the rankings (launch weeks, list_launches' sections, leaderboards, awards),
 * each whole: read them there, or EXPLAIN one with the text and values its module gives. Every one
 * takes the site first and the page's bounds (per page, offset) last.
 */
export const RANKING_SQL = {
  /** A past or current launch week ranked by its votes, with awards. */
  week: statementFile('ranking-week'),
  /** A future launch week's schedule. */
  scheduledWeek: statementFile('ranking-week-scheduled'),
  /** A list_launches section other than this-week. */
  section: statementFile('ranking-section'),
  /** A leaderboard other than community-weekly. */
  board: statementFile('ranking-board'),
  /** Launch of the Week awards. */
  awards: statementFile('ranking-awards'),
} as const;

/** A ranking statement and its parameters in their order. */
export interface RankingStatement {
  text: string;
  values: unknown[];
}

/** The parameters a ranking statement takes after its own: per page and offset. */
export const pageBounds = (page: number, perPage: number) => [perPage, offsetOf(page, perPage)];

/** A ranked row before hydration: which listing, where it stands, and what it is ranked by. */
export interface RankedRow {
  listing_id: bigint | number;
  pos: number;
  rank: number | null;
  votes: number | null;
  award: number | null;
  metric_num: number | null;
  metric_text: string | null;
  [extra: string]: unknown;
}

/** A ranking's size and one page of its rows, in order. */
export interface RankingResult {
  total: number;
  rows: RankedRow[];
}

/** Runs a ranking statement in one round trip: the ranking's size and the page's rows in order. */
export async function rankingPage(sql: Sql, { text, values }: RankingStatement): Promise<RankingResult> {
  const rows = await sql.unsafe<({ total: number } & RankedRow)[]>(text, values as never[], { prepare: true });
  const total = rows[0]?.total ?? 0;
  return { total, rows: rows.filter((r) => r.listing_id !== null) as RankedRow[] };
}

/** Pairs each ranked row with its listing summary, keeping the ranking's order. */
export async function withSummaries<R extends { listing_id: bigint | number }>(sql: Sql, rows: R[], siteUrl: string) {
  const summaries = await listingSummaries(
    sql,
    rows.map((r) => r.listing_id),
    siteUrl,
  );
  const byId = new Map(summaries.map((s) => [String(s.id), s]));
  return rows.flatMap((r) => {
    const listing = byId.get(String(r.listing_id));
    return listing ? [{ row: r, listing }] : [];
  }) as { row: R; listing: ListingSummaryRow }[];
}
