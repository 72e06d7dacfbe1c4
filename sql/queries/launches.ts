import type { Sql } from '../db.ts';
import { pageBounds, RANKING_SQL, rankingPage, type RankingResult, type RankingStatement } from './rankings.ts';

/**
 * A launch week's statement. Past and current weeks: live launches ranked by votes cast during the
 * week, with any award (ranking-week.sql). Future weeks: the listings scheduled for it, unranked
 * (ranking-week-scheduled.sql).
 */
export function launchWeekStatement(siteId: number, week: string, isFuture: boolean, page: number, perPage: number): RankingStatement {
  return { text: isFuture ? RANKING_SQL.scheduledWeek : RANKING_SQL.week, values: [siteId, week, ...pageBounds(page, perPage)] };
}

/** One page of a launch week (rank, votes and award for past and current weeks), and its size. */
export async function launchWeekPage(sql: Sql, siteId: number, week: string, isFuture: boolean, page: number, perPage: number) {
  return rankingPage(sql, launchWeekStatement(siteId, week, isFuture, page, perPage));
}

export const LAUNCH_SECTIONS = ['today', 'this-week', 'trending', 'most-voted', 'recent', 'most-viewed', 'most-followed', 'upcoming'] as const;
export type LaunchSection = (typeof LAUNCH_SECTIONS)[number];

/** What each section is ordered by; the name appears on every item as metric.name. */
export const SECTION_METRIC: Record<LaunchSection, string> = {
  today: 'votes',
  'this-week': 'week_votes',
  trending: 'trending_score',
  'most-voted': 'votes',
  recent: 'launched_at',
  'most-viewed': 'views',
  'most-followed': 'follows',
  upcoming: 'launch_week',
};

/** A section's statement: this-week is the current week's ranking, the others ranking-section.sql. */
export function launchSectionStatement(siteId: number, section: LaunchSection, page: number, perPage: number): RankingStatement {
  if (section === 'this-week') return { text: RANKING_SQL.week, values: [siteId, null, ...pageBounds(page, perPage)] };
  return { text: RANKING_SQL.section, values: [siteId, section, ...pageBounds(page, perPage)] };
}

/** One page of a list_launches section (listing_id, pos, metric_num or metric_text), and its size. */
export async function launchSectionPage(sql: Sql, siteId: number, section: LaunchSection, page: number, perPage: number): Promise<RankingResult> {
  const ranked = await rankingPage(sql, launchSectionStatement(siteId, section, page, perPage));
  if (section !== 'this-week') return ranked;
  // This week's position is its weekly rank, and its metric the votes cast during the week.
  return { total: ranked.total, rows: ranked.rows.map((r) => ({ ...r, pos: r.rank!, metric_num: r.votes, metric_text: null })) };
}
