// Examples of the maker-insight operations, in the shape of the demo data (seeds/): a demo owner's listing.
import type { OperationExamples } from '../registry/operation.ts';

const day = (d: string, views: number, clicks: number, badge: number) => ({
  day: d,
  views,
  clicks,
  badge_impressions: badge,
  api_reads: 2,
  mcp_reads: 1,
  follows: 1,
  votes: 3,
});

export const makerInsightsExamples = {
  set_listing_revenue: {
    input: { listing_id: 1, mrr_cents: 1250000, currency: 'EUR' },
    output: {
      listing_id: 1,
      source: 'self_reported',
      verified: false,
      mrr_cents: 1250000,
      currency: 'EUR',
      month: '2026-11-01',
      stripe_key_hint: null,
      last_checked_at: null,
      last_error: null,
    },
    error: {
      status: 400,
      code: 'invalid_input',
      detail: 'Invalid input: stripe_key send either mrr_cents with currency, or stripe_key, not both',
      errors: [{ field: 'stripe_key', message: 'send either mrr_cents with currency, or stripe_key, not both' }],
    },
  },
  get_listing_stats: {
    input: { listing_id: 1, days: 2 },
    output: {
      listing_id: 1,
      days: 2,
      from: '2026-11-27',
      to: '2026-11-28',
      totals: { views: 326, clicks: 41, badge_impressions: 190, api_reads: 4, mcp_reads: 2, follows: 2, votes: 6 },
      series: [day('2026-11-27', 188, 25, 104), day('2026-11-28', 138, 16, 86)],
      badge_hosts: [
        { host: 'relaydesk.example', impressions: 171 },
        { host: '(direct)', impressions: 19 },
      ],
    },
    error: { status: 404, code: 'not_found', detail: "No listing 4242 of yours on this site (another account's listing is reported the same way)." },
  },
} satisfies Record<string, OperationExamples>;
