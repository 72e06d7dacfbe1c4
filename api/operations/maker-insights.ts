// What a listing brings its maker: the revenue figure it shows on the revenue board
// (set_listing_revenue) and its statistics (get_listing_stats). Logic in core/revenue, core/stats.
import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { Nullable } from '../registry/schemas.ts';
import { ListingIdPath } from './my-listings-schemas.ts';
import { listingOwner, NOT_YOURS, notes } from './my-listings.ts';
import { setListingRevenue, type RevenueInput } from '../../core/revenue/listing-revenue.ts';
import { listingStats } from '../../core/stats/listing-stats.ts';
import { makerInsightsExamples } from './maker-insights-examples.ts';

const RevenueBody = Type.Object(
  {
    mrr_cents: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 100_000_000_000,
        description: 'Self-reported monthly recurring revenue in integer cents, e.g. 1250000 for 12,500.00. Send with currency; not with stripe_key.',
      }),
    ),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code of mrr_cents, upper case, e.g. "USD" or "EUR".' })),
    stripe_key: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 220,
        description:
          'A restricted read-only Stripe key with read access to subscriptions, e.g. "rk_live_51H...". Stored encrypted and never shown again; secret keys (sk_) are refused. Not with mrr_cents.',
      }),
    ),
  },
  { additionalProperties: false },
);

const ListingRevenue = Type.Object({
  listing_id: Type.Integer(),
  source: Type.Union([Type.Literal('self_reported'), Type.Literal('stripe')], { description: 'self_reported, or stripe: read monthly from the key.' }),
  verified: Type.Boolean({ description: 'True when the current figure was read from Stripe.' }),
  mrr_cents: Nullable(Type.Integer({ description: 'The latest figure in integer cents; null until a Stripe key was first read.' })),
  currency: Nullable(Type.String()),
  month: Nullable(Type.String({ format: 'date', description: 'First day of the month the figure is for.' })),
  stripe_key_hint: Nullable(Type.String({ description: 'The last four characters of the stored key; the key itself is never returned.' })),
  last_checked_at: Nullable(Type.String({ format: 'date-time', description: 'When the key was last read.' })),
  last_error: Nullable(Type.String({ description: 'Why the last read of the key failed, or what it did not count.' })),
});

const Counts = {
  views: Type.Integer({ description: 'Views of the listing page.' }),
  clicks: Type.Integer({ description: 'Visits of the website through the listing page (each visitor once a day).' }),
  badge_impressions: Type.Integer({ description: 'Badge images served (all referring hosts).' }),
  api_reads: Type.Integer({ description: 'Reads of the profile through the REST API.' }),
  mcp_reads: Type.Integer({ description: 'Reads of the profile through MCP.' }),
  follows: Type.Integer({ description: 'New followers.' }),
  votes: Type.Integer({ description: 'New votes.' }),
};

const ListingStats = Type.Object({
  listing_id: Type.Integer(),
  days: Type.Integer(),
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date', description: 'Today (UTC).' }),
  totals: Type.Object(Counts),
  series: Type.Array(Type.Object({ day: Type.String({ format: 'date' }), ...Counts }), { description: 'One entry per UTC day, oldest first, zeros included.' }),
  badge_hosts: Type.Array(Type.Object({ host: Type.String(), impressions: Type.Integer() }), {
    description: 'Badge impressions by referring host over the period, most first (at most 20); "(direct)" when no Referer was sent.',
  }),
});

export const makerInsightsOperations: Operation[] = [
  defineOperation({
    name: 'set_listing_revenue',
    examples: makerInsightsExamples.set_listing_revenue,
    method: 'PUT',
    path: '/me/listings/{listing_id}/revenue',
    tag: 'My listings',
    scope: 'listings:write',
    idempotent: true,
    summary: "Set your listing's revenue",
    description:
      'Sets the monthly recurring revenue the revenue leaderboard shows for your listing: self-reported (mrr_cents with currency) or verified, read monthly from a restricted read-only Stripe key (stripe_key). Sending one replaces the other.',
    params: ListingIdPath,
    notFoundParams: ['listing_id'],
    body: RevenueBody,
    output: ListingRevenue,
    responses: { 422: 'A stripe_key was sent but this site does not store Stripe keys (code stripe_keys_disabled).' },
    notes: notes(
      NOT_YOURS,
      'Body: {"mrr_cents": 1250000, "currency": "EUR"} or {"stripe_key": "rk_live_..."}; both, or neither, is a 400 naming the field. A self-reported figure is recorded for the current month at once. A Stripe key is read within a minute and then monthly (active subscriptions, each price normalised to a month; subscriptions in other currencies than the main one are not counted and last_error says so). The board converts figures to USD with rates the site team maintains and never shows a key or a customer.',
    ),
    handler: async ({ listing_id, ...body }, ctx) => setListingRevenue(listingOwner(ctx), listing_id, body as RevenueInput, ctx.config.revenue.keysSecret),
  }),

  defineOperation({
    name: 'get_listing_stats',
    examples: makerInsightsExamples.get_listing_stats,
    method: 'GET',
    path: '/me/listings/{listing_id}/stats',
    tag: 'My listings',
    scope: 'account:read',
    summary: "Get your listing's statistics",
    description:
      'Daily statistics of your listing over the last days (UTC), oldest first with totals: page views, website clicks, badge impressions by referring host, API and MCP reads, new follows and votes. Owners only.',
    params: ListingIdPath,
    notFoundParams: ['listing_id'],
    query: Type.Object(
      { days: Type.Integer({ minimum: 1, maximum: 365, default: 30, description: 'How many days back, today included, e.g. 30 (1 to 365).' }) },
      { additionalProperties: false },
    ),
    output: ListingStats,
    notes: notes(
      NOT_YOURS,
      'Website clicks go through {site_url}/go/{slug}, which counts each visitor once per listing and day: the address and user agent are hashed with a salt of the day that is deleted after two days, and no address is stored.',
    ),
    handler: async ({ listing_id, days }, ctx) => listingStats(listingOwner(ctx), listing_id, days ?? 30),
  }),
];
