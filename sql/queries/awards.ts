import type { Sql } from '../db.ts';
import { pageBounds, RANKING_SQL, rankingPage, type RankingStatement } from './rankings.ts';

/** The awards' statement (ranking-awards.sql): with a listing slug, only that listing's awards. */
export function awardsStatement(siteId: number, listingSlug: string | undefined, page: number, perPage: number): RankingStatement {
  return { text: RANKING_SQL.awards, values: [siteId, listingSlug ?? null, ...pageBounds(page, perPage)] };
}

/** One page of the Launch of the Week awards of live listings on this site, and how many there are. */
export async function awardsPage(sql: Sql, siteId: number, listingSlug: string | undefined, page: number, perPage: number) {
  return rankingPage(sql, awardsStatement(siteId, listingSlug, page, perPage));
}
