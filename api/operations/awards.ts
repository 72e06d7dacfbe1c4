import { Type } from '@sinclair/typebox';
import { awardsPage } from '../../sql/queries/awards.ts';
import { withSummaries } from '../../sql/queries/rankings.ts';
import { pageInfo } from '../../sql/queries/summaries.ts';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { ListingSummary, ListOf, Paging, Slug } from '../registry/schemas.ts';
import { awardsExamples } from './awards-examples.ts';

const Award = Type.Object({
  week: Type.String({ format: 'date', description: 'Monday of the launch week (UTC).' }),
  week_end: Type.String({ format: 'date', description: 'Sunday of the launch week (UTC).' }),
  rank: Type.Integer({ minimum: 1, maximum: 3 }),
  title: Type.String({ description: 'Launch of the Week #1, #2 or #3.' }),
  votes: Type.Integer({ minimum: 0, description: 'Community votes cast during the launch week.' }),
  listing: ListingSummary,
});

export const awardsOperations: Operation[] = [
  defineOperation({
    name: 'list_awards',
    examples: awardsExamples.list_awards,
    method: 'GET',
    path: '/awards',
    tag: 'Awards',
    scope: null,
    summary: 'Launch of the Week awards',
    description:
      "Lists Launch of the Week awards (#1 to #3 of each week by community votes), newest week first. Pass listing (a slug) for one listing's awards.",
    query: Type.Object(
      {
        listing: Type.Optional(Slug('Only the awards of the listing with this slug, e.g. relaydesk.')),
        ...Paging,
      },
      { additionalProperties: false },
    ),
    output: ListOf(Award),
    notes:
      'Only awards of live listings on this site are shown, ordered by week (newest first) then rank. Awards are granted ' +
      'once a week is over, to the top three of that week with at least one vote. `listing` is a filter, not a ' +
      'path resource: a slug that matches no live listing on this site gives an empty list (200), like a listing without ' +
      'awards, rather than a 404 (the API answers 404 only for resources named in the path).',
    handler: async ({ listing, page, per_page }, { sql, site, config }) => {
      const { total, rows } = await awardsPage(sql, site.id, listing, page, per_page);
      const items = (await withSummaries(sql, rows, config.siteUrl)).map(({ row, listing: summary }) => ({
        week: row.week as string,
        week_end: row.week_end as string,
        rank: row.rank as number,
        title: `Launch of the Week #${row.rank}`,
        votes: row.votes as number,
        listing: summary,
      }));
      return { items, ...pageInfo(page, per_page, total) };
    },
  }),
];
