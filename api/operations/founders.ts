import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { CountryCode, ListingSummary, ListOf, Nullable, Paging, Slug } from '../registry/schemas.ts';
import { notFound } from '../../core/errors/index.ts';
import { founderBySlug, searchFounders } from '../../sql/queries/founders.ts';
import { listingSummaries, pageInfo } from '../../sql/queries/summaries.ts';
import { foundersExamples } from './founders-examples.ts';

const PUBLIC_RULE =
  'A founder is public while linked to at least one live listing of this site; founders only of unpublished listings or of other sites are not shown.';

const FounderItem = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  title: Nullable(Type.String({ description: "The founder's role, e.g. CEO." })),
  country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2, upper case.' })),
  avatar_url: Nullable(Type.String()),
  companies: Type.Integer({ minimum: 1, description: 'Live listings of this site the founder is linked to.' }),
});

const Section = Nullable(Type.String());
const Story = Type.Object({
  listing_slug: Type.String(),
  listing_name: Type.String(),
  title: Section,
  sections: Type.Object({
    story: Section,
    why_started: Section,
    problem: Section,
    journey: Section,
    challenges: Section,
    achievements: Section,
    lessons: Section,
    whats_next: Section,
  }),
});

const FounderProfile = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  title: Nullable(Type.String()),
  bio: Nullable(Type.String()),
  country: Nullable(Type.String()),
  avatar_url: Nullable(Type.String()),
  socials: Type.Record(Type.String(), Type.String(), { description: 'Platform name to link (linkedin, x, github, ...).' }),
  companies: Type.Array(Type.Composite([ListingSummary, Type.Object({ role: Nullable(Type.String({ description: "The founder's role at this company." })) })])),
  stories: Type.Array(Story, { description: "Founder stories published with the founder's listings." }),
  interview: Type.Array(Type.Object({ question_id: Type.Integer(), question: Type.String(), answer: Type.String() })),
});

export const foundersOperations: Operation[] = [
  defineOperation({
    name: 'list_founders',
    examples: foundersExamples.list_founders,
    method: 'GET',
    path: '/founders',
    tag: 'Founders',
    scope: null,
    summary: 'List founders',
    description:
      "Lists founders of listed companies, filtered by name (misspellings match) and country. Call get_founder with a founder's slug for the bio and companies.",
    query: Type.Object(
      {
        q: Type.Optional(Type.String({ maxLength: 120, description: 'Name to look for, e.g. Camille; close misspellings match too.' })),
        country: Type.Optional(CountryCode),
        ...Paging,
      },
      { additionalProperties: false },
    ),
    output: ListOf(FounderItem),
    notes: [
      PUBLIC_RULE,
      'q matches names that contain it (any case) or are close to it (trigram word similarity, so a typo still finds the person); results are then ordered best match first. Without q, founders are ordered by name. An empty q is ignored.',
      "country matches the founder's country in any case.",
    ].join('\n\n'),
    handler: async ({ q, country, page, per_page }, { sql, site }) => {
      const { total, items } = await searchFounders(sql, site.id, { q: q?.trim() || null, country: country ?? null, page, perPage: per_page });
      return { items, ...pageInfo(page, per_page, total) };
    },
  }),

  defineOperation({
    name: 'get_founder',
    examples: foundersExamples.get_founder,
    method: 'GET',
    path: '/founders/{slug}',
    tag: 'Founders',
    scope: null,
    summary: 'Get a founder',
    description:
      "Returns one founder by slug: bio, socials, the companies they listed and their published stories. Take the slug from list_founders or a listing's founders.",
    params: Type.Object({ slug: Slug('The founder slug from list_founders, e.g. camille-ivanova.') }, { additionalProperties: false }),
    notFoundParams: ['slug'],
    output: FounderProfile,
    notes: [
      PUBLIC_RULE + ' Unknown and non-public founders answer 404.',
      "`companies` are the founder's live listings on this site (newest launch first), each with the founder's `role`. `stories` are the founder stories of those listings whose story section is unlocked. `interview` holds the founder's answers to the active interview questions, in question order, when the founder has an account; otherwise it is empty.",
    ].join('\n\n'),
    handler: async ({ slug }, { sql, site, config }) => {
      const founder = await founderBySlug(sql, site.id, slug);
      if (!founder) throw notFound(`No founder with slug "${slug}".`);
      const { id: _id, companies: links, ...rest } = founder;
      const summaries = await listingSummaries(
        sql,
        links.map((c) => c.listing_id),
        config.siteUrl,
      );
      const roles = new Map(links.map((c) => [c.listing_id, c.role]));
      return { ...rest, companies: summaries.map((s) => ({ ...s, role: roles.get(s.id) ?? null })) };
    },
  }),
];
