import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { ListingSummary, ListOf, Nullable, Paging } from '../registry/schemas.ts';
import { LAUNCH_SECTIONS, SECTION_METRIC, launchSectionPage, launchWeekPage } from '../../sql/queries/launches.ts';
import { withSummaries } from '../../sql/queries/rankings.ts';
import { pageInfo } from '../../sql/queries/summaries.ts';
import { MAX_WEEKS_AHEAD, WEEK_PATTERN, resolveWeek } from '../../core/launch-weeks.ts';
import { launchesExamples } from './launches-examples.ts';

/** The week fields every week-shaped response carries. */
export const WeekFields = {
  week: Type.String({ format: 'date', description: 'Monday of the week (UTC), YYYY-MM-DD.' }),
  week_end: Type.String({ format: 'date', description: 'Sunday of the week (UTC), YYYY-MM-DD.' }),
  label: Nullable(
    Type.Union([Type.Literal('this'), Type.Literal('next'), Type.Literal('last')], {
      description: 'this, next or last when the week is one of those relative to now, else null.',
    }),
  ),
  is_future: Type.Boolean({ description: 'The week starts after the current week.' }),
};

const LaunchWeekItem = Type.Object({
  rank: Nullable(Type.Integer({ minimum: 1, description: 'Rank by votes cast during the week; null for a future week.' })),
  votes: Nullable(Type.Integer({ minimum: 0, description: 'Community votes cast during the week; null for a future week.' })),
  listing: ListingSummary,
  award: Type.Optional(
    Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)], {
      description: 'Launch of the Week #1, #2 or #3, present only when awarded.',
    }),
  ),
});

const SectionItem = Type.Composite([
  ListingSummary,
  Type.Object({
    rank: Type.Integer({ minimum: 1, description: "Position in this section's order, counted across pages (the weekly rank for this-week)." }),
    metric: Type.Object({
      name: Type.String({ description: 'What the section is ordered by: votes, week_votes, trending_score, launched_at, views, follows or launch_week.' }),
      value: Nullable(Type.Union([Type.Number(), Type.String()])),
    }),
  }),
]);

const weekNotes =
  `Week arithmetic is UTC; weeks run Monday to Sunday and a date is snapped to its Monday. ` +
  `A date that does not exist (2026-02-30) is a 400 naming \`week\`. The calendar runs from the site's first launch week ` +
  `to ${MAX_WEEKS_AHEAD} weeks after the current week; any other week is a 404.`;

export const launchesOperations: Operation[] = [
  defineOperation({
    name: 'get_launch_week',
    examples: launchesExamples.get_launch_week,
    method: 'GET',
    path: '/launches/weeks/{week}',
    tag: 'Launches',
    scope: null,
    summary: 'Launches of one week',
    description:
      'Lists the launches of one week (this, next, last or any date, which counts as its Monday) ranked by the community votes cast that week; for a future week, the launches scheduled for it. Use list_launches for rolling lists such as trending.',
    params: Type.Object(
      {
        week: Type.String({
          maxLength: 10,
          pattern: WEEK_PATTERN,
          description: 'this, next, last, or a date YYYY-MM-DD snapped to its Monday, e.g. 2026-11-23.',
        }),
      },
      { additionalProperties: false },
    ),
    query: Type.Object({ ...Paging }, { additionalProperties: false }),
    output: ListOf(LaunchWeekItem, WeekFields),
    notes:
      `${weekNotes} Past and current weeks list live launches only, ranked by votes cast during the week ` +
      `(ties: earlier launch first); \`award\` appears on Launch of the Week winners. A future week lists the listings ` +
      `scheduled for it in launch order then name, with rank and votes null. \`label\` is set whenever the week is this, ` +
      `next or last week, however it was asked for. Weekly ranks and total come from a ranking view refreshed about every ` +
      `minute; a launch hidden since the last refresh is left out at once (the others keep their ranks, pages count what is ` +
      `shown), while total counts the week as of that refresh.`,
    handler: async ({ week, page, per_page }, { sql, site, config }) => {
      const w = await resolveWeek(sql, site.id, week, 'path');
      const { total, rows } = await launchWeekPage(sql, site.id, w.week, w.is_future, page, per_page);
      const items = (await withSummaries(sql, rows, config.siteUrl)).map(({ row, listing }) => ({
        rank: row.rank,
        votes: row.votes,
        listing,
        ...(row.award ? { award: row.award as 1 | 2 | 3 } : {}),
      }));
      return { ...w, items, ...pageInfo(page, per_page, total) };
    },
  }),
  defineOperation({
    name: 'list_launches',
    examples: launchesExamples.list_launches,
    method: 'GET',
    path: '/launches',
    tag: 'Launches',
    scope: null,
    summary: 'Launch lists by section',
    description:
      'Lists launches by section: today, this week, trending, most voted, recent, most viewed, most followed or upcoming (scheduled, not yet live). Use get_launch_week for one calendar week, past or future.',
    query: Type.Object(
      {
        // Optional so OpenAPI and MCP do not mark it required; the edge still fills the default in.
        section: Type.Optional(
          Type.Union(
            LAUNCH_SECTIONS.map((s) => Type.Literal(s)),
            { default: 'this-week', description: 'Which list.' },
          ),
        ),
        ...Paging,
      },
      { additionalProperties: false },
    ),
    output: ListOf(SectionItem, { section: Type.String() }),
    notes:
      'Each item is a listing summary plus `rank` (position in the section) and `metric` (what the section is ordered by). ' +
      'today: live listings whose launched_at falls on the current UTC day, by all-time votes. this-week: the current week ranked ' +
      'as get_launch_week does (votes cast during the week). trending: all live listings by votes decayed with a 3-day half-life (the votes as of the last refresh, the decay as of the request). ' +
      'most-voted, most-viewed, most-followed: all live listings by all-time votes, profile views, followers. recent: live ' +
      'listings by launched_at, newest first. upcoming: scheduled listings by launch week, soonest first. Counters come from ' +
      'ranking views refreshed about every minute. Status is re-checked as items are read, so a listing hidden since the last ' +
      "refresh is left out at once; total is counted at that refresh (today's is counted exactly), and a listing added since " +
      'then joins trending, most-voted, most-viewed and most-followed at the next one.',
    handler: async ({ section = 'this-week', page, per_page }, { sql, site, config }) => {
      const { total, rows } = await launchSectionPage(sql, site.id, section, page, per_page);
      const items = (await withSummaries(sql, rows, config.siteUrl)).map(({ row, listing }) => ({
        ...listing,
        rank: row.pos,
        metric: { name: SECTION_METRIC[section], value: row.metric_text ?? row.metric_num },
      }));
      return { section, items, ...pageInfo(page, per_page, total) };
    },
  }),
];
