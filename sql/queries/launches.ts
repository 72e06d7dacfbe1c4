import type postgres from 'postgres';
import type { Sql } from '../db.ts';
import { listingSummaries, offsetOf, type ListingSummaryRow } from './summaries.ts';

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

/**
 * Pages a ranking. `ranked` is a select yielding listing_id and pos (1-based order) plus any other
 * columns; one round trip returns the page and the total (one row of nulls when the page is empty).
 */
export async function pagedRanking(sql: Sql, ranked: postgres.Fragment, page: number, perPage: number) {
  const rows = await sql<({ total: number } & RankedRow)[]>`
    with ranked as (${ranked})
    select t.total, p.* from (select count(*)::int as total from ranked) t
    left join lateral (select * from ranked order by pos limit ${perPage} offset ${offsetOf(page, perPage)}) p on true
    order by p.pos`;
  const total = rows[0]?.total ?? 0;
  return { total, rows: rows.filter((r) => r.listing_id !== null) as RankedRow[] };
}

/** Pairs each ranked row with its listing summary, keeping the ranking's order. */
export async function withSummaries<R extends { listing_id: bigint | number }>(sql: Sql, rows: R[], siteUrl: string) {
  const summaries = await listingSummaries(sql, rows.map((r) => r.listing_id), siteUrl);
  const byId = new Map(summaries.map((s) => [String(s.id), s]));
  return rows.flatMap((r) => {
    const listing = byId.get(String(r.listing_id));
    return listing ? [{ row: r, listing }] : [];
  }) as { row: R; listing: ListingSummaryRow }[];
}

/**
 * One launch week. Past and current weeks: live launches ranked by votes cast during the week
 * (mv_weekly_ranking) with any award. Future weeks: the listings scheduled for it, unranked.
 */
export function launchWeekRanking(sql: Sql, siteId: number, week: string, isFuture: boolean) {
  if (isFuture) {
    return sql`
      select l.id as listing_id, null::int as rank, null::int as votes, null::int as award,
             row_number() over (order by l.launched_at asc nulls last, l.name, l.id)::int as pos
      from listings l
      where l.site_id = ${siteId} and l.status = 'scheduled' and l.launch_week = ${week}::date`;
  }
  return sql`
    select r.listing_id, r.rank, r.votes, a.rank as award, r.rank as pos
    from mv_weekly_ranking r
    join listings l on l.id = r.listing_id and l.status = 'live'
    left join awards a on a.site_id = r.site_id and a.listing_id = r.listing_id and a.week = r.week
    where r.site_id = ${siteId} and r.week = ${week}::date`;
}

export const LAUNCH_SECTIONS = ['today', 'this-week', 'trending', 'most-voted', 'recent', 'most-viewed', 'most-followed', 'upcoming'] as const;
export type LaunchSection = (typeof LAUNCH_SECTIONS)[number];

/** What each section is ordered by; the name appears on every item as metric.name. */
export const SECTION_METRIC: Record<LaunchSection, string> = {
  today: 'votes', 'this-week': 'week_votes', trending: 'trending_score', 'most-voted': 'votes',
  recent: 'launched_at', 'most-viewed': 'views', 'most-followed': 'follows', upcoming: 'launch_week',
};

/** The ordered selection behind one list_launches section (listing_id, pos, metric_num or metric_text). */
export function launchSection(sql: Sql, siteId: number, section: LaunchSection) {
  if (section === 'this-week') {
    return sql`
      select r.listing_id, r.rank as pos, r.votes::float8 as metric_num, null::text as metric_text
      from mv_weekly_ranking r join listings l on l.id = r.listing_id and l.status = 'live'
      where r.site_id = ${siteId} and r.week = date_trunc('week', now() at time zone 'utc')::date`;
  }
  if (section === 'upcoming') {
    return sql`
      select l.id as listing_id, null::float8 as metric_num, to_char(l.launch_week, 'YYYY-MM-DD') as metric_text,
             row_number() over (order by l.launch_week asc nulls last, l.launched_at asc nulls last, l.name, l.id)::int as pos
      from listings l where l.site_id = ${siteId} and l.status = 'scheduled'`;
  }
  const today = section === 'today'
    ? sql`and l.launched_at >= date_trunc('day', now() at time zone 'utc') at time zone 'utc'
          and l.launched_at < (date_trunc('day', now() at time zone 'utc') + interval '1 day') at time zone 'utc'`
    : sql``;
  const order = {
    today: sql`coalesce(s.votes, 0) desc, l.launched_at asc, l.id`,
    trending: sql`coalesce(s.trending, 0) desc, coalesce(s.votes, 0) desc, l.id`,
    'most-voted': sql`coalesce(s.votes, 0) desc, l.id`,
    recent: sql`l.launched_at desc nulls last, l.id desc`,
    'most-viewed': sql`coalesce(s.views, 0) desc, l.id`,
    'most-followed': sql`coalesce(s.follows, 0) desc, l.id`,
  }[section];
  const metric = {
    today: sql`coalesce(s.votes, 0)::float8`,
    trending: sql`round(coalesce(s.trending, 0)::numeric, 4)::float8`,
    'most-voted': sql`coalesce(s.votes, 0)::float8`,
    recent: sql`null::float8`,
    'most-viewed': sql`coalesce(s.views, 0)::float8`,
    'most-followed': sql`coalesce(s.follows, 0)::float8`,
  }[section];
  return sql`
    select l.id as listing_id, ${metric} as metric_num,
           case when ${section === 'recent'} then to_char(l.launched_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') end as metric_text,
           row_number() over (order by ${order})::int as pos
    from listings l left join mv_listing_stats s on s.listing_id = l.id
    where l.site_id = ${siteId} and l.status = 'live' ${today}`;
}
