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
 * One page of a ranking, costing the page rather than the ranking. `total` is a scalar select of
 * the ranking's size (a view's total column or a small count); `rows` selects the page (listing_id,
 * pos and the metric columns) by walking an index in the ranking's order, ending with pageOf's clause.
 */
export interface RankingPage {
  total: postgres.Fragment;
  rows: postgres.Fragment;
}

/**
 * The LIMIT/OFFSET clause ending a RankingPage's `rows`. Past the end (by pagedRanking's total in
 * `t`) the limit is 0, so no index is walked in vain. A row_number() in the same select runs before
 * LIMIT/OFFSET, streaming along the index, so it numbers rows across pages.
 */
export function pageOf(sql: Sql, page: number, perPage: number): postgres.Fragment {
  const offset = offsetOf(page, perPage);
  return sql`limit case when (select total from t) > ${offset} then ${perPage} else 0 end offset ${offset}`;
}

/**
 * Liveness re-check of a ranked row as a correlated boolean subquery: the planner cannot turn it
 * into a join over the whole ranking, and estimates it true for half the rows (a comparison with
 * the subquery would be guessed at 0.5%, making a full scan and sort look cheaper), so even a
 * generic prepared plan walks the index and stops at the page.
 */
export const isLive = (sql: Sql, listingId: postgres.Fragment) => sql`(select ll.status = 'live' from listings ll where ll.id = ${listingId})`;

/** Runs a RankingPage in one round trip: the total and the page's rows in order. */
export async function pagedRanking(sql: Sql, ranking: RankingPage) {
  const rows = await sql<({ total: number } & RankedRow)[]>`
    with t as materialized (select coalesce((${ranking.total}), 0)::int as total)
    select t.total, p.* from t left join lateral (${ranking.rows}) p on true
    order by p.pos`;
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

/**
 * One page of a launch week's ranking (listing_id, rank, votes): its live launches ranked as read
 * by votes cast during the week, then launch time, then id, as of the last refresh. The liveness
 * check applies after ranking, so the others keep their ranks. listing_stats_week_rank holds each
 * week in this order, so a page walks it and stops; total is the week's size in week_totals.
 */
export function weekRanking(sql: Sql, siteId: number, week: postgres.Fragment, page: postgres.Fragment) {
  return {
    total: sql`select total from week_totals where site_id = ${siteId} and week = ${week}`,
    rows: sql`
      select b.listing_id, b.rank, b.votes
      from (select s.listing_id, s.week_votes as votes, s.launched_at,
                   row_number() over (order by s.week_votes desc, s.launched_at asc nulls last, s.listing_id)::int as rank
            from listing_stats s where s.site_id = ${siteId} and s.launch_week = ${week} and s.live) b
      where ${isLive(sql, sql`b.listing_id`)}
      order by b.votes desc, b.launched_at asc nulls last, b.listing_id ${page}`,
  };
}

/**
 * One page of a launch week. Past and current weeks: live launches ranked by votes cast during the
 * week (weekRanking) with any award. Future weeks: the listings scheduled for it, unranked.
 */
export function launchWeekRanking(sql: Sql, siteId: number, week: string, isFuture: boolean, page: postgres.Fragment): RankingPage {
  if (isFuture) {
    // A week's schedule is small: counted exactly; listings_scheduled_order gives the order.
    return {
      total: sql`select count(*) from listings where site_id = ${siteId} and status = 'scheduled' and launch_week = ${week}::date`,
      rows: sql`
        select l.id as listing_id, null::int as rank, null::int as votes, null::int as award,
               row_number() over (order by l.launched_at asc nulls last, l.name, l.id)::int as pos
        from listings l
        where l.site_id = ${siteId} and l.status = 'scheduled' and l.launch_week = ${week}::date
        order by l.launched_at asc nulls last, l.name, l.id ${page}`,
    };
  }
  const ranked = weekRanking(sql, siteId, sql`${week}::date`, page);
  return {
    total: ranked.total,
    // Awards are joined to the page's rows only, not to those skipped by OFFSET.
    rows: sql`
      select r.listing_id, r.rank, r.votes, r.rank as pos, a.rank as award
      from (${ranked.rows}) r
      left join awards a on a.site_id = ${siteId} and a.week = ${week}::date and a.listing_id = r.listing_id
      order by r.rank`,
  };
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

/** Listings of the site in one status as of the last refresh (listing_counts). */
const countOf = (sql: Sql, siteId: number, status: 'live' | 'scheduled') =>
  sql`select listings from listing_counts where site_id = ${siteId} and status = ${status}`;

const launchedAt = (sql: Sql) => sql`to_char(l.launched_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/** The counter sections walk the matching listing_stats index (site_id, counter desc, ..., listing_id). */
const COUNTER_SECTIONS = {
  // trend_log orders as trending does at any moment; the score shown is as of the request.
  trending: { order: 's.trend_log desc, s.votes desc, s.listing_id', metric: 'round(trending_now(s.trend_log)::numeric, 4)::float8' },
  'most-voted': { order: 's.votes desc, s.listing_id', metric: 's.votes::float8' },
  'most-viewed': { order: 's.views desc, s.listing_id', metric: 's.views::float8' },
  'most-followed': { order: 's.follows desc, s.listing_id', metric: 's.follows::float8' },
} as const;

/** One page of a list_launches section (listing_id, pos, metric_num or metric_text). */
export function launchSection(sql: Sql, siteId: number, section: LaunchSection, page: postgres.Fragment): RankingPage {
  const pos = (order: string) => sql`row_number() over (order by ${sql.unsafe(order)})::int as pos`;
  switch (section) {
    case 'this-week': {
      const ranked = weekRanking(sql, siteId, sql`date_trunc('week', now() at time zone 'utc')::date`, page);
      return {
        total: ranked.total,
        rows: sql`
          select r.listing_id, r.rank as pos, r.votes::float8 as metric_num, null::text as metric_text
          from (${ranked.rows}) r order by r.rank`,
      };
    }
    case 'upcoming': {
      const order = 'l.launch_week asc nulls last, l.launched_at asc nulls last, l.name, l.id';
      return {
        total: countOf(sql, siteId, 'scheduled'),
        rows: sql`
          select l.id as listing_id, null::float8 as metric_num, to_char(l.launch_week, 'YYYY-MM-DD') as metric_text, ${pos(order)}
          from listings l where l.site_id = ${siteId} and l.status = 'scheduled'
          order by ${sql.unsafe(order)} ${page}`,
      };
    }
    case 'recent': {
      const order = 'l.launched_at desc nulls last, l.id desc';
      return {
        total: countOf(sql, siteId, 'live'),
        rows: sql`
          select l.id as listing_id, null::float8 as metric_num, ${launchedAt(sql)} as metric_text, ${pos(order)}
          from listings l where l.site_id = ${siteId} and l.status = 'live'
          order by ${sql.unsafe(order)} ${page}`,
      };
    }
    case 'today': {
      // A day's launches are few (a range of listings_live_launched): counted and sorted exactly.
      const day = sql`l.site_id = ${siteId} and l.status = 'live'
        and l.launched_at >= date_trunc('day', now() at time zone 'utc') at time zone 'utc'
        and l.launched_at < (date_trunc('day', now() at time zone 'utc') + interval '1 day') at time zone 'utc'`;
      const order = 'coalesce(s.votes, 0) desc, l.launched_at asc, l.id';
      return {
        total: sql`select count(*) from listings l where ${day}`,
        rows: sql`
          select l.id as listing_id, coalesce(s.votes, 0)::float8 as metric_num, null::text as metric_text, ${pos(order)}
          from listings l left join listing_stats s on s.listing_id = l.id
          where ${day} order by ${sql.unsafe(order)} ${page}`,
      };
    }
    default: {
      // Counters exist for listings present at the last refresh; one added since joins at the next.
      const { order, metric } = COUNTER_SECTIONS[section];
      return {
        total: countOf(sql, siteId, 'live'),
        rows: sql`
          select s.listing_id, ${sql.unsafe(metric)} as metric_num, null::text as metric_text, ${pos(order)}
          from listing_stats s
          where s.site_id = ${siteId} and ${isLive(sql, sql`s.listing_id`)}
          order by ${sql.unsafe(order)} ${page}`,
      };
    }
  }
}
