import { beforeAll, expect, test } from 'bun:test';
import { planDatabase, ranPlan, type PlanDatabase } from '../../test/plans.ts';
import type { Sql } from '../db.ts';
import { awardsStatement } from './awards.ts';
import { LAUNCH_SECTIONS, launchSectionStatement, launchWeekStatement } from './launches.ts';
import { BOARDS, boardStatement } from './leaderboards.ts';
import { RANKING_SQL, type RankingStatement } from './rankings.ts';

// The plans of the ranking statements (ranking-*.sql) as PostgreSQL caches them (generic: the plan
// every call after the fifth runs), run. A ranking's page walks its own index in the ranking's
// order and stops at the page: no other branch's index read, no whole table, and no sort but of
// the page's own rows, put in order as they are returned (at most per page). The few rankings
// meant to be sorted (a day's launches, the awards) sort only their own rows. Each statement keeps
// its cached plan over calls with different values.

const plans = planDatabase(3000, async (sql, siteId) => {
  // Paid and revenue boards the size of the others: half the live listings on the billboard, every
  // company with a figure, so that reading the whole board and sorting it would show.
  await sql`
    insert into billboard_contributions (listing_id, amount_cents, currency)
    select id, 1000 + (id % 977) * 100, 'USD' from listings where site_id = ${siteId} and status = 'live' and id % 2 = 0`;
  await sql`
    insert into revenue_figures (company_id, month, mrr_cents)
    select distinct company_id, date_trunc('month', now() - interval '1 month')::date, (company_id % 991) * 1000
    from listings where site_id = ${siteId}
    on conflict do nothing`;
  await sql`select refresh_directory_views()`;
});
let db: PlanDatabase['db'];
let one: Sql;
let siteId: number;
beforeAll(() => {
  ({ db, one, siteId } = plans);
});

/** The plan as it ran, and whether the statement read a whole table. */
async function plan({ text, values }: RankingStatement) {
  const ran = await ranPlan(one, text, values);
  return { ...ran, seqScan: ran.ranNodes.some((l) => / Seq Scan on (listings|listing_stats|listing_domain_rating|mv_board_\w+) /.test(l)) };
}

/** The walk each ranking's page is meant to be, by what it reads. */
const SECTION_WALKS = {
  recent: 'listings_live_launched',
  upcoming: 'listings_scheduled_order',
  trending: 'listing_stats_trending',
  'most-voted': 'listing_stats_votes',
  'most-viewed': 'listing_stats_views',
  'most-followed': 'listing_stats_follows',
} as const;
const BOARD_WALKS = {
  'community-all-time': 'listing_stats_board',
  'domain-rating': 'listing_domain_rating_board',
  billboard: 'mv_board_billboard_rank',
  revenue: 'mv_board_revenue_rank',
} as const;
const ALL_WALKS = [...Object.values(SECTION_WALKS), ...Object.values(BOARD_WALKS), 'listing_stats_week_rank'];

/** What a walk must hold: its own index read, no other walk, no sort beyond the page, no whole table, rows returned. */
async function expectWalk(name: string, statement: RankingStatement, index: string) {
  const p = await plan(statement);
  const perPage = statement.values.at(-2) as number;
  const [row] = await db.sql.unsafe<{ listing_id: string | null }[]>(statement.text, statement.values as never[]);
  expect({
    name,
    walked: p.ran(index),
    others: ALL_WALKS.filter((i) => i !== index && p.ran(i)),
    sortedBeyondPage: p.sorted.filter((rows) => rows > perPage),
    seqScan: p.seqScan,
    found: row?.listing_id !== null,
  }).toEqual({ name, walked: true, others: [], sortedBeyondPage: [], seqScan: false, found: true });
}

test('a launch week’s page walks listing_stats_week_rank and stops; a future week walks listings_scheduled_order', async () => {
  const [{ week }] = await db.sql<{ week: string }[]>`
    select to_char(week, 'YYYY-MM-DD') as week from week_totals where site_id = ${siteId} order by total desc, week limit 1`;
  await expectWalk('past week', launchWeekStatement(siteId, week, false, 2, 5), 'listing_stats_week_rank');
  await expectWalk('this week', launchSectionStatement(siteId, 'this-week', 1, 5), 'listing_stats_week_rank');
  await expectWalk('community-weekly', boardStatement(siteId, 'community-weekly', week, 3, 5), 'listing_stats_week_rank');
  const [{ future }] = await db.sql<{ future: string }[]>`
    select to_char(launch_week, 'YYYY-MM-DD') as future from listings
    where site_id = ${siteId} and status = 'scheduled' and launch_week > date_trunc('week', now() at time zone 'utc')::date
    group by launch_week order by count(*) desc, launch_week limit 1`;
  await expectWalk('future week', launchWeekStatement(siteId, future, true, 1, 5), 'listings_scheduled_order');
});

test('each list_launches section but today walks its own index to the page, and only its branch runs', async () => {
  for (const [section, index] of Object.entries(SECTION_WALKS) as [keyof typeof SECTION_WALKS, string][]) {
    await expectWalk(section, launchSectionStatement(siteId, section, 3, 10), index);
  }
});

test('each leaderboard walks its own index in rank order to the page, and only its branch runs', async () => {
  for (const [board, index] of Object.entries(BOARD_WALKS) as [keyof typeof BOARD_WALKS, string][]) {
    await expectWalk(board, boardStatement(siteId, board, null, 2, 10), index);
  }
});

test('today reads its day’s launches by listings_live_launched and sorts only them; awards sort only the site’s', async () => {
  const [{ today }] = await db.sql<{ today: number }[]>`
    select count(*)::int as today from listings where site_id = ${siteId} and status = 'live'
      and launched_at >= date_trunc('day', now() at time zone 'utc') at time zone 'utc'`;
  const day = await plan(launchSectionStatement(siteId, 'today', 1, 10));
  expect({ read: day.ran('listings_live_launched'), seqScan: day.seqScan, sortedAtMost: Math.max(0, ...day.sorted) <= today }).toEqual({
    read: true,
    seqScan: false,
    sortedAtMost: true,
  });
  const [{ awards }] = await db.sql<{ awards: number }[]>`select count(*)::int as awards from awards where site_id = ${siteId}`;
  expect(awards).toBeGreaterThan(0);
  const all = await plan(awardsStatement(siteId, undefined, 2, 5));
  expect(all.sorted.length).toBeGreaterThan(0);
  expect(all.sorted.every((rows) => rows <= awards)).toBe(true);
  expect(all.seqScan).toBe(false);
});

test('each ranking statement keeps its cached plan over calls with different values', async () => {
  const weeks = (
    await db.sql<{ week: string }[]>`
    select to_char(week, 'YYYY-MM-DD') as week from week_totals where site_id = ${siteId} order by week`
  ).map((r) => r.week);
  const [{ slug }] = await db.sql<{ slug: string }[]>`
    select l.slug from awards a join listings l on l.id = a.listing_id where a.site_id = ${siteId} order by a.id limit 1`;
  await one`set plan_cache_mode = auto`;
  const run = ({ text, values }: RankingStatement) => one.unsafe(text, values as never[], { prepare: true });
  for (let i = 0; i < 15; i++) {
    await run(launchWeekStatement(siteId, weeks[i % weeks.length]!, false, 1 + (i % 3), 5 + i));
    await run(launchWeekStatement(siteId, weeks[i % weeks.length]!, true, 1, 5 + i));
    await run(launchSectionStatement(siteId, LAUNCH_SECTIONS.filter((s) => s !== 'this-week')[i % 7]!, 1 + (i % 4), 10 + i));
    await run(boardStatement(siteId, BOARDS.filter((b) => b !== 'community-weekly')[i % 4]!, null, 1 + (i % 2), 10 + i));
    await run(awardsStatement(siteId, i % 2 ? slug : undefined, 1 + (i % 2), 3 + i));
  }
  const plans = await one<{ statement: string; generic: number; custom: number }[]>`
    select statement, generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where generic_plans + custom_plans >= 15`;
  await one`set plan_cache_mode = force_generic_plan`;
  // Each was called 15 times: at most the five custom plans PostgreSQL makes before it compares
  // them with the generic one, then the cached one.
  expect(
    Object.entries(RANKING_SQL).map(([name, text]) => {
      const p = plans.find((x) => x.statement === text);
      return { name, called: (p?.custom ?? 0) + (p?.generic ?? 0), replanned: (p?.custom ?? 0) > 5 };
    }),
  ).toEqual(Object.keys(RANKING_SQL).map((name) => ({ name, called: 15, replanned: false })));
});
