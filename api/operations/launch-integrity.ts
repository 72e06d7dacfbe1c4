import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { ListingSummary, ListOf, Nullable, Paging } from '../registry/schemas.ts';
import { launchWeekPage } from '../../sql/queries/launches.ts';
import { withSummaries } from '../../sql/queries/rankings.ts';
import { launchIntegrity, type LaunchIntegrityRow } from '../../sql/queries/launch-integrity.ts';
import { pageInfo } from '../../sql/queries/summaries.ts';
import { WEEK_PATTERN, resolveWeek } from '../../core/launch-weeks.ts';
import { WeekFields } from './launches.ts';
import { launchIntegrityExamples } from './launch-integrity-examples.ts';

const share = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 1000 : null);

const Share = (about: string) =>
  Nullable(Type.Number({ minimum: 0, maximum: 1, description: `${about} From 0 to 1, 3 decimals; null without votes to judge.` }));

const IntegrityItem = Type.Object({
  rank: Nullable(Type.Integer({ minimum: 1, description: 'The launch week rank (as get_launch_week); null for a future week.' })),
  listing: ListingSummary,
  votes: Type.Integer({ minimum: 0, description: 'Every vote cast for the launch during its launch week, discounted ones included. Example: 312.' }),
  counted_votes: Type.Integer({ minimum: 0, description: 'The votes the ranking and awards count: not discounted, not by a suspended account. Example: 298.' }),
  votes_with_signals: Type.Integer({
    minimum: 0,
    description: 'Votes whose signals were recorded (account age, network, browser, prior visit); the shares below are of these. Example: 312.',
  }),
  new_account_votes: Type.Integer({ minimum: 0, description: 'Votes from accounts less than 24 hours old when they voted. Example: 12.' }),
  new_account_share: Share('new_account_votes / votes_with_signals.'),
  top_network_votes: Type.Integer({ minimum: 0, description: 'The most votes from any one network (a /24 for IPv4, a /48 for IPv6). Example: 9.' }),
  top_network_share: Share('top_network_votes / votes_with_signals.'),
  burst_votes: Type.Integer({
    minimum: 0,
    description: 'Votes in bursts: runs of at least 5 votes each cast within 10 minutes of the one before. Example: 40.',
  }),
  discounted_votes: Type.Integer({ minimum: 0, description: 'Votes the site team discounted (kept, not counted). Example: 14.' }),
  discounted: Type.Array(
    Type.Object({
      reason: Type.String({ description: "The site team's published reason. Example: vote ring: fresh accounts from a few networks in bursts." }),
      votes: Type.Integer({ minimum: 1, description: 'Votes discounted for this reason. Example: 14.' }),
    }),
    { description: 'Discounted votes by reason, most first.' },
  ),
  summary: Type.String({ description: 'One short line for people. Example: 312 votes, 4% from new accounts.' }),
});

function summaryOf(i: LaunchIntegrityRow): string {
  const parts = [`${i.counted_votes} ${i.counted_votes === 1 ? 'vote' : 'votes'}`];
  const fresh = share(i.new_account_votes, i.votes_with_signals);
  if (fresh !== null) parts.push(`${Math.round(fresh * 100)}% from new accounts`);
  if (i.discounted_votes) parts.push(`${i.discounted_votes} discounted`);
  return parts.join(', ');
}

const NONE: Omit<LaunchIntegrityRow, 'listing_id'> = {
  votes: 0,
  counted_votes: 0,
  votes_with_signals: 0,
  new_account_votes: 0,
  top_network_votes: 0,
  burst_votes: 0,
  discounted_votes: 0,
  discounted: [],
};

export const launchIntegrityOperations: Operation[] = [
  defineOperation({
    name: 'get_launch_integrity',
    method: 'GET',
    path: '/launches/weeks/{week}/integrity',
    tag: 'Launches',
    scope: null,
    summary: 'How the votes of a launch week were cast',
    description:
      "For each launch of one week: its votes, those that count, votes from accounts under a day old, the most from one network, votes in bursts, and votes the site team discounted with the reason. Use it to judge whether a week's ranking can be trusted; nothing identifies a voter.",
    params: Type.Object(
      {
        week: Type.String({
          maxLength: 10,
          pattern: WEEK_PATTERN,
          description: 'this, next, last, or a date YYYY-MM-DD snapped to its Monday, e.g. 2026-11-16.',
        }),
      },
      { additionalProperties: false },
    ),
    query: Type.Object({ ...Paging }, { additionalProperties: false }),
    output: ListOf(IntegrityItem, WeekFields),
    examples: launchIntegrityExamples.get_launch_integrity,
    notes:
      'Beyond the spec: this directory publishes how each launch week was voted. The week forms, calendar, order and paging are those of ' +
      "get_launch_week. The numbers are over the votes cast during the launch's week (as the ranking counts them) and come from signals " +
      'stored with each vote without the address: the account age, a keyed hash of the /24 or /48 network, the browser family and whether ' +
      'the voter had opened the listing first; votes cast before signals were recorded count in votes but not in the shares. Discounted ' +
      'votes are kept and listed with the reason the site team gave; restoring them makes them count again. A future week lists its ' +
      'scheduled launches with zeros.',
    handler: async ({ week, page, per_page }, { sql, site, config }) => {
      const w = await resolveWeek(sql, site.id, week, 'path');
      const { total, rows } = await launchWeekPage(sql, site.id, w.week, w.is_future, page, per_page);
      const ranked = await withSummaries(sql, rows, config.siteUrl);
      const numbers = await launchIntegrity(
        sql,
        ranked.map(({ row }) => row.listing_id),
      );
      const items = ranked.map(({ row, listing }) => {
        const i = numbers.get(String(row.listing_id)) ?? { listing_id: String(row.listing_id), ...NONE };
        return {
          rank: row.rank,
          listing,
          votes: i.votes,
          counted_votes: i.counted_votes,
          votes_with_signals: i.votes_with_signals,
          new_account_votes: i.new_account_votes,
          new_account_share: share(i.new_account_votes, i.votes_with_signals),
          top_network_votes: i.top_network_votes,
          top_network_share: share(i.top_network_votes, i.votes_with_signals),
          burst_votes: i.burst_votes,
          discounted_votes: i.discounted_votes,
          discounted: i.discounted,
          summary: summaryOf(i),
        };
      });
      return { ...w, items, ...pageInfo(page, per_page, total) };
    },
  }),
];
