import { Type } from '@sinclair/typebox';
import { invalid } from '../../core/errors/index.ts';
import { BOARDS, boardPage, type Board } from '../../sql/queries/leaderboards.ts';
import { withSummaries, type RankedRow } from '../../sql/queries/rankings.ts';
import { pageInfo } from '../../sql/queries/summaries.ts';
import { MAX_WEEKS_AHEAD, resolveWeek, type LaunchWeek } from '../../core/launch-weeks.ts';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { ListingSummary, ListOf, Nullable, Paging } from '../registry/schemas.ts';
import { WeekFields } from './launches.ts';
import { leaderboardsExamples } from './leaderboards-examples.ts';

const DISCLOSURE = 'Paid ranking: billboard positions are bought with money contributed; they are not community votes and do not lead to awards.';

const BOARD_INFO: Record<Board, { title: string; description: string; metric: string }> = {
  'community-weekly': {
    title: 'Community: weekly',
    metric: 'week_votes',
    description: 'Live launches of one week ranked by community votes cast during that week. Launch of the Week awards follow this board.',
  },
  'community-all-time': {
    title: 'Community: all time',
    metric: 'votes',
    description: 'Live listings ranked by all community votes they ever received; listings without votes are not ranked.',
  },
  billboard: {
    title: 'Billboard (paid)',
    metric: 'amount_cents',
    description: 'A paid ranking: live listings ordered by the money contributed to the billboard, always presented as paid.',
  },
  'domain-rating': {
    title: 'Domain Rating',
    metric: 'domain_rating',
    description: 'Live listings ranked by the latest Domain Rating of their website; trend is the change against a rating at least four weeks older.',
  },
  revenue: {
    title: 'Revenue',
    metric: 'mrr_cents',
    description:
      "Live listings ranked by the latest monthly recurring revenue (converted to USD at the site team's rates); source says whether the owner reported it or it was read from Stripe (verified).",
  },
};

const Metric = Type.Object({
  name: Type.String({ description: 'week_votes, votes, amount_cents, domain_rating or mrr_cents.' }),
  value: Type.Number({ description: 'The ranked value: votes, integer cents or a rating 0..100.' }),
  currency: Type.Optional(Type.String({ description: 'ISO 4217 currency of a money value.' })),
  contributions: Type.Optional(Type.Integer({ description: 'Billboard: number of payments summed.' })),
  trend: Type.Optional(Nullable(Type.Integer({ description: 'Domain Rating: change over about four weeks; null without an older rating.' }))),
  measured_on: Type.Optional(Type.String({ format: 'date' })),
  month: Type.Optional(Type.String({ format: 'date', description: 'Revenue: first day of the month reported.' })),
  verified: Type.Optional(Type.Boolean()),
  source: Type.Optional(
    Type.Union([Type.Literal('self_reported'), Type.Literal('stripe')], {
      description:
        "Revenue: where the figure came from: self_reported by the listing's owner, or stripe (read from the owner's restricted Stripe key; verified).",
    }),
  ),
  usd_cents: Type.Optional(
    Nullable(
      Type.Number({
        description: "Revenue: the figure in USD cents at the site team's exchange rates, which the board ranks by; null without a rate for its currency.",
      }),
    ),
  ),
});

const BoardItem = Type.Object({
  rank: Type.Integer({ minimum: 1 }),
  listing: ListingSummary,
  metric: Metric,
  paid: Type.Boolean({ description: 'True on the billboard: the position was bought.' }),
  disclosure: Type.Optional(Type.String()),
});

const weekFieldsOptional = Object.fromEntries(Object.entries(WeekFields).map(([k, v]) => [k, Type.Optional(v)]));

function metricOf(board: Board, row: RankedRow) {
  const m = { name: BOARD_INFO[board].metric, value: row.metric_num ?? 0 };
  switch (board) {
    case 'billboard':
      return { ...m, currency: row.currency as string, contributions: row.contributions as number };
    case 'domain-rating':
      return { ...m, trend: row.trend as number | null, measured_on: row.measured_on as string };
    case 'revenue':
      return {
        ...m,
        currency: row.currency as string,
        month: row.month as string,
        verified: row.verified as boolean,
        source: row.source as 'self_reported' | 'stripe',
        usd_cents: row.usd_cents as number | null,
      };
    default:
      return m;
  }
}

export const leaderboardsOperations: Operation[] = [
  defineOperation({
    name: 'get_leaderboard',
    examples: leaderboardsExamples.get_leaderboard,
    method: 'GET',
    path: '/leaderboards/{board}',
    tag: 'Leaderboards',
    scope: null,
    summary: 'One leaderboard',
    description:
      'Returns a page of one leaderboard by its slug (community-weekly, community-all-time, billboard, domain-rating, revenue), each item with rank, listing and metric. The billboard is a paid ranking and is always labelled as paid.',
    params: Type.Object(
      {
        board: Type.Union(
          BOARDS.map((b) => Type.Literal(b)),
          { description: 'Which leaderboard.' },
        ),
      },
      { additionalProperties: false },
    ),
    query: Type.Object(
      {
        week: Type.Optional(
          Type.String({
            maxLength: 10,
            pattern: '^(this|last|[0-9]{4}-[0-9]{2}-[0-9]{2})$',
            description: 'community-weekly only: this (the default), last, or a date YYYY-MM-DD snapped to its Monday, e.g. 2026-11-23.',
          }),
        ),
        ...Paging,
      },
      { additionalProperties: false },
    ),
    notFoundParams: ['board'],
    output: ListOf(BoardItem, {
      board: Type.String(),
      title: Type.String(),
      description: Type.String(),
      paid: Type.Boolean({ description: 'True for the billboard, a paid ranking.' }),
      disclosure: Type.Optional(Type.String({ description: 'Present on paid boards: how the ranking is bought.' })),
      ...weekFieldsOptional,
    }),
    notes:
      'An unknown board is a 404. `week` applies to community-weekly only (default this week); sending it with another ' +
      'board is a 400 naming `week`. Weeks are UTC, Monday to Sunday; a date that does not exist is a 400, and a week before ' +
      `the site's first launch week or more than ${MAX_WEEKS_AHEAD} weeks ahead is a 404. The weekly response also carries ` +
      'week, week_end, label and is_future. The billboard is a paid ranking: the response and every item carry paid: true ' +
      'and a disclosure sentence. Money is integer cents with a currency. Boards read ranking views refreshed about every minute; ' +
      'a listing hidden since the last refresh is left out at once (the others keep their ranks, pages count what is shown), ' +
      'while total counts the board as of that refresh.',
    handler: async ({ board, week, page, per_page }, { sql, site, config }) => {
      let w: LaunchWeek | null = null;
      if (board === 'community-weekly') {
        w = await resolveWeek(sql, site.id, week ?? 'this', 'query');
      } else if (week !== undefined) {
        const issue = { field: 'week', in: 'query', message: 'applies to the community-weekly board only' };
        throw invalid(`Invalid input: week ${issue.message}`, [issue]);
      }
      const { total, rows } = await boardPage(sql, site.id, board, w?.week ?? null, page, per_page);
      const paid = board === 'billboard';
      const items = (await withSummaries(sql, rows, config.siteUrl)).map(({ row, listing }) => ({
        rank: row.rank ?? row.pos,
        listing,
        metric: metricOf(board, row),
        paid,
        ...(paid ? { disclosure: DISCLOSURE } : {}),
      }));
      const { title, description } = BOARD_INFO[board];
      return {
        board,
        title,
        description,
        paid,
        ...(paid ? { disclosure: DISCLOSURE } : {}),
        ...(w ?? {}),
        items,
        ...pageInfo(page, per_page, total),
      };
    },
  }),
];
