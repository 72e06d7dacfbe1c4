import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation, Serialized, serializedList } from '../registry/operation.ts';
import { CountryCode, Faq, ListingSummary, ListOf, Nullable, Paging, Slug } from '../registry/schemas.ts';
import { invalid, notFound, type FieldIssue } from '../../core/errors/index.ts';
import { SEARCH_SORTS, searchListingsJson } from '../../sql/queries/listings.ts';
import { profileJson, profileParts } from '../../sql/queries/listing-profile.ts';
import { batchedRead } from '../http/batched-read.ts';
import { listingAlternativeIds } from '../../sql/queries/listing-alternatives.ts';
import { compareRows, compareSides } from '../../sql/queries/compare.ts';
import { listingSummaries, pageInfo } from '../../sql/queries/summaries.ts';
import { listingsExamples } from './listings-examples.ts';

const SlugPath = Type.Object({ slug: Slug('The listing slug from search_listings, e.g. relaydesk.') }, { additionalProperties: false });
const notes = (...lines: string[]) => lines.join('\n\n');
/** get_listing's misses started in one turn share one statement. */
const profilePartsOf = batchedRead(profileParts);

const Named = Type.Object({ slug: Type.String(), name: Type.String() });
const Iso = Type.String({ format: 'date-time' });
const Day = Type.String({ format: 'date' });
const Strings = Type.Array(Type.String());
const SocialMap = Type.Record(Type.String(), Type.String(), { description: 'Platform name (linkedin, x, github, ...) to link.' });

const ListingProfile = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  name: Type.String(),
  url: Type.String({ description: 'The product website.' }),
  domain: Type.String(),
  profile_url: Type.String({ description: 'The listing page on this site.' }),
  tagline: Nullable(Type.String()),
  short_description: Nullable(Type.String()),
  description: Nullable(Type.String()),
  headline: Nullable(Type.String({ description: "This site's headline for the listing." })),
  summary: Nullable(Type.String({ description: "This site's summary of the listing." })),
  features: Strings,
  usps: Strings,
  keywords: Strings,
  pricing: Type.Object({ model: Nullable(Type.String()), summary: Nullable(Type.String()) }),
  stage: Nullable(Type.String()),
  country: Nullable(Type.String()),
  city: Nullable(Type.String()),
  founded_year: Nullable(Type.Integer()),
  demo_video_url: Nullable(Type.String()),
  contact_email: Nullable(Type.String()),
  logo_url: Nullable(Type.String()),
  seo: Type.Object({ title: Nullable(Type.String()), description: Nullable(Type.String()) }),
  categories: Type.Array(Type.Object({ slug: Type.String(), name: Type.String(), primary: Type.Boolean(), parent: Nullable(Named) }), {
    description: 'The primary category first, then the extra ones.',
  }),
  founders: Type.Array(
    Type.Object({
      slug: Type.String(),
      name: Type.String(),
      title: Nullable(Type.String({ description: 'Role at this company.' })),
      avatar_url: Nullable(Type.String()),
      socials: SocialMap,
      primary: Type.Boolean(),
    }),
    { description: 'The primary founder first.' },
  ),
  faqs: Type.Array(Faq),
  socials: SocialMap,
  latest_updates: Type.Array(Type.Object({ id: Type.Integer(), title: Type.String(), body: Type.String(), created_at: Iso }), {
    description: 'The 5 newest updates, newest first.',
  }),
  community_rating: Type.Object({
    average: Nullable(Type.Number({ description: 'Average of genuine reviews, 1..5, two decimals.' })),
    count: Type.Integer({ description: 'Genuine reviews: not by the owner, not flagged.' }),
  }),
  domain_rating: Nullable(
    Type.Object({
      rating: Type.Integer({ minimum: 0, maximum: 100 }),
      measured_on: Day,
      trend: Nullable(Type.Integer({ description: 'Change since the latest measurement at least 28 days older.' })),
      history: Type.Array(Type.Object({ measured_on: Day, rating: Type.Integer() }), { description: 'Up to 12 latest measurements, oldest first.' }),
    }),
  ),
  links: Type.Object({
    website: Type.String(),
    profile: Type.String(),
    badges: Type.String({ description: 'get_badges for this listing.' }),
    alternatives: Type.String({ description: 'get_alternatives for this listing.' }),
  }),
  votes: Type.Integer(),
  follows: Type.Integer(),
  views: Type.Integer(),
  launch_week: Nullable(Day),
  launched_at: Nullable(Iso),
  plan: Type.String({ description: 'free or paid.' }),
  not_found_on_website: Type.Array(Type.String(), { description: "Profile facts the company's own website did not state." }),
  story: Nullable(
    Type.Object(
      {
        title: Nullable(Type.String()),
        story: Nullable(Type.String()),
        why_started: Nullable(Type.String()),
        problem: Nullable(Type.String()),
        journey: Nullable(Type.String()),
        challenges: Nullable(Type.String()),
        achievements: Nullable(Type.String()),
        lessons: Nullable(Type.String()),
        whats_next: Nullable(Type.String()),
        updated_at: Iso,
      },
      { description: 'The founder story; null unless the story section is unlocked and written.' },
    ),
  ),
  milestones: Nullable(
    Type.Array(
      Type.Object({
        id: Type.Integer({ minimum: 1 }),
        date: Day,
        title: Type.String(),
        description: Nullable(Type.String()),
        url: Nullable(Type.String()),
      }),
      { description: 'Newest first; null unless the milestones section is unlocked.' },
    ),
  ),
  media: Nullable(
    Type.Array(
      Type.Object({
        kind: Type.Union([Type.Literal('image'), Type.Literal('video')]),
        url: Type.String(),
        caption: Nullable(Type.String()),
      }),
      { description: 'Screenshots and videos; null unless the media section is unlocked.' },
    ),
  ),
  featured_until: Nullable(Type.String({ format: 'date-time', description: 'Set while a bought featured placement runs: when it ends.' })),
  ai_review: Nullable(
    Type.Object(
      {
        body: Type.String({ description: 'The written review (plain text).' }),
        quotes: Type.Array(Type.Object({ quote: Type.String(), url: Type.String() }), {
          description: "Words from the product's own website the review is drawn from.",
        }),
        created_at: Iso,
      },
      { description: 'The latest AI review bought for the listing (ai_review product); null when none.' },
    ),
  ),
});

const AlternativeItem = Type.Composite([
  ListingSummary,
  Type.Object({
    approved: Type.Boolean({ description: "True for alternatives the listing's owner approved; false for other listings of the same primary category." }),
  }),
]);

const Cell = Nullable(
  Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.Unknown()), Type.Object({})], {
    description: "The listing's value for this fact, or null when the listing does not state it.",
  }),
);
const Comparison = Type.Object({
  a: ListingSummary,
  b: ListingSummary,
  rows: Type.Array(
    Type.Object({
      key: Type.String(),
      label: Type.String(),
      source: Type.Union([Type.Literal('category'), Type.Literal('listing')], {
        description: 'category: an attribute of a primary category; listing: a fact every listing has a place for.',
      }),
      a: Cell,
      b: Cell,
    }),
  ),
});

export const listingsOperations: Operation[] = [
  defineOperation({
    name: 'search_listings',
    examples: listingsExamples.search_listings,
    method: 'GET',
    path: '/listings',
    tag: 'Listings',
    scope: null,
    summary: 'Search and filter listings',
    description:
      "Finds live listings by words in their name, tagline, description and keywords; a misspelled product name still finds it. Filters take slugs (category, stage) and codes (country). Returns listing summaries; call get_listing with a summary's slug for the full profile.",
    query: Type.Object(
      {
        q: Type.Optional(Type.String({ maxLength: 200, description: 'Words to look for, e.g. relaydesk or help desk; typos are forgiven.' })),
        category: Type.Optional(
          Slug(
            'A category slug from list_categories (not its display name), e.g. developer-tools; a top-level category includes its subcategories. Extra categories count too.',
          ),
        ),
        stage: Type.Optional(Slug('Stage slug, e.g. beta.')),
        country: Type.Optional(CountryCode),
        pricing_model: Type.Optional(Type.String({ maxLength: 40, description: 'Pricing model, compared case-insensitively, e.g. freemium.' })),
        domain: Type.Optional(
          Type.String({
            maxLength: 253,
            description: 'A web domain, e.g. relaydesk.co: matches listings on it or on a subdomain of it; www. and case are ignored.',
          }),
        ),
        status: Type.Union([Type.Literal('live'), Type.Literal('upcoming')], {
          default: 'live',
          description: 'upcoming: scheduled for a launch week not yet past.',
        }),
        sort: Type.Union(
          SEARCH_SORTS.map((s) => Type.Literal(s)),
          { default: 'relevance', description: 'Order of the results.' },
        ),
        ...Paging,
      },
      { additionalProperties: false },
    ),
    output: ListOf(ListingSummary),
    notes: notes(
      'Search: every word of q must match. A word matches itself and its English stem; from 3 characters also words starting with it; from 4 letters also up to six words of live and upcoming listings one typo away (one letter changed, added or removed, or two neighbours swapped), the most similar first; from 7 letters also two edits away where the two share a spelling with one letter removed from each, and, for a word no listing uses with nothing one typo away, the nearest words within two edits. Common English words (the, for, ...) are ignored unless q has nothing else. Only when no listing matches the words (with the other filters), listings whose name is similar to q as a whole (trigram similarity of at least 0.3, e.g. a run-together name like notionclone) match instead. A blank q is the same as no q; a q without any letter or digit matches nothing. total always counts every match exactly.',
      'Sorts: relevance with q = exact name matches first, then names starting with q, then names that are q with its typos corrected (as many words, each matched), then text rank over name, tagline and keywords (the name weighs most; a match only in the description ranks after them), or name similarity when matched by name, then most votes, then newest; relevance without q = most votes first, then newest. newest = most recently launched first (upcoming listings: most recently added). votes, trending (votes decayed with a 3-day half-life), most_viewed and most_followed sort by that counter, highest first, newest breaking ties.',
      'Counters (votes, trending, views, follows) come from ranking views refreshed about every minute; a listing added since the last refresh shows zero, and without q a listing added or launched since then is left out of counter-sorted pages (total still counts it) until the next one.',
      "Filters: an unknown category, stage or pricing model is not an error: nothing matches it, so the list is empty. country is compared in upper case. domain also accepts a URL (scheme, port and path are ignored). Without q and with no other filter, a category's total is as of the last ranking refresh (about a minute), as get_category counts it; its pages are current.",
      'status=upcoming lists listings scheduled for this launch week or a later one; they have no launched_at.',
    ),
    handler: async (input, { sql, site, config }) => {
      const { page, per_page } = input;
      const { itemsJson, total } = await searchListingsJson(
        sql,
        site.id,
        {
          q: input.q,
          category: input.category,
          stage: input.stage,
          country: input.country,
          pricingModel: input.pricing_model,
          domain: input.domain,
          status: input.status,
          sort: input.sort,
        },
        page,
        per_page,
        config.siteUrl,
      );
      return serializedList(itemsJson, pageInfo(page, per_page, total));
    },
  }),

  defineOperation({
    name: 'get_listing',
    examples: listingsExamples.get_listing,
    method: 'GET',
    path: '/listings/{slug}',
    tag: 'Listings',
    scope: null,
    summary: "Get a listing's public profile",
    description:
      'Returns the full public profile of one live listing by its slug: description, features, pricing, categories, founders, FAQs, socials, latest updates and ratings. Find the slug with search_listings; an unknown or unpublished slug is 404.',
    params: SlugPath,
    notFoundParams: ['slug'],
    output: ListingProfile,
    notes: notes(
      'The community rating counts genuine reviews only; the Domain Rating comes with its trend. The story, milestones and media sections appear only when they are unlocked for the listing.',
      "404 when no live listing of this site has the slug (drafts, scheduled listings and other sites' listings are not shown).",
      'story, milestones and media are always present: null when the section is not unlocked for the listing. When unlocked, milestones and media are arrays (possibly empty) and story is null until written.',
      "community_rating counts genuine reviews only: reviews by the listing's owner and flagged reviews are left out. average is null when there are none.",
      'domain_rating is null when no rating was measured; trend is the change from the latest measurement at least 28 days older (null without one); history holds up to the 12 latest measurements, oldest first.',
      'latest_updates holds the 5 newest updates, newest first. milestones are newest first. Categories: the primary one first (primary=true).',
    ),
    handler: async ({ slug }, ctx) => {
      const parts = await profilePartsOf(ctx, ctx.site.id, slug);
      if (!parts) throw notFound(`No live listing with slug "${slug}".`);
      return new Serialized(profileJson(parts, ctx.config.siteUrl));
    },
  }),

  defineOperation({
    name: 'get_alternatives',
    examples: listingsExamples.get_alternatives,
    method: 'GET',
    path: '/listings/{slug}/alternatives',
    tag: 'Listings',
    scope: null,
    summary: 'List alternatives to a listing',
    description:
      'Lists alternatives to a live listing: those its owner approved first (approved=true), then other live listings of its primary category. Use compare_listings to set two of them side by side.',
    params: SlugPath,
    notFoundParams: ['slug'],
    query: Type.Object({ ...Paging }, { additionalProperties: false }),
    output: ListOf(AlternativeItem),
    notes: notes(
      '404 when no live listing of this site has the slug.',
      'Only live listings of this site are shown, each once, never the listing itself. Within each group: most votes first, then newest.',
      'The category group is read in the order of the last ranking refresh (each minute by default), as the leaderboards are: a listing that just went live joins it then; `total` counts the live listings as they are now.',
    ),
    handler: async ({ slug, page, per_page }, { sql, site, config }) => {
      const found = await listingAlternativeIds(sql, site.id, slug, page, per_page);
      if (!found) throw notFound(`No live listing with slug "${slug}".`);
      const summaries = await listingSummaries(
        sql,
        found.items.map((i) => i.id),
        config.siteUrl,
      );
      const items = summaries.map((s, i) => ({ ...s, approved: found.items[i].approved }));
      return { items, ...pageInfo(page, per_page, found.total) };
    },
  }),

  defineOperation({
    name: 'compare_listings',
    examples: listingsExamples.compare_listings,
    method: 'GET',
    path: '/compare',
    tag: 'Listings',
    scope: null,
    summary: 'Compare two listings side by side',
    description:
      'Compares two live listings, given as slugs a and b (for example from get_alternatives): their category attributes side by side, plus pricing model, country, founded year, stage, votes and community rating. Both must be live; an unknown slug is 404.',
    query: Type.Object(
      {
        a: Slug('Slug of the first listing, e.g. relaydesk.'),
        b: Slug('Slug of the second listing (not a), e.g. atlasworks.'),
      },
      { additionalProperties: false },
    ),
    output: Comparison,
    notes: notes(
      "Rows: the attributes of a's primary category in their order, then those of b's primary category not yet shown (an attribute keyed like one of the listing facts below is shown once, as that fact), then pricing_model, country, founded_year, stage, votes, community_rating (average of genuine reviews) and community_rating_count.",
      "A cell is null when that listing does not state the fact (blank strings and empty lists count as not stated). A fact only one listing states shows its value in that listing's cell and null in the other. A row with both cells null is still shown: the fact is on neither listing.",
      '400 when a equals b; 404 naming a, b or both when no live listing of this site has that slug.',
    ),
    handler: async ({ a, b }, { sql, site, config }) => {
      const issue: FieldIssue & { in: string } = { field: 'b', in: 'query', message: 'must differ from a' };
      if (a === b) throw invalid('Invalid input: b must differ from a (compare two different listings).', [issue]);
      const sides = await compareSides(sql, site.id, a, b);
      const missing = (['a', 'b'] as const).filter((k) => !sides[k]);
      if (missing.length) throw notFound(`No live listing with slug ${missing.map((k) => `"${k === 'a' ? a : b}" (${k})`).join(' or ')}.`);
      const [sa, sb] = await listingSummaries(sql, [sides.a!.id, sides.b!.id], config.siteUrl);
      return { a: sa, b: sb, rows: compareRows(sides.a!, sides.b!) };
    },
  }),
];
