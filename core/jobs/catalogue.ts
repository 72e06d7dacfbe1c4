// Every job of the worker, defined once: the edge enqueues them, the pipeline runs them.
import { Type } from '@sinclair/typebox';
import { BACKGROUND, defineJob, NO_PAYLOAD } from './define.ts';

const DraftId = Type.String({ format: 'uuid' });
const ListingId = Type.Integer({ minimum: 1 });

export const JOBS = {
  crawl_draft: defineJob({
    name: 'crawl_draft',
    version: 1,
    maxAttempts: 3,
    about: "Crawls a submitted draft's website (robots.txt first) and stores its pages.",
    payload: Type.Object({ draft_id: DraftId }, { additionalProperties: false }),
    key: (p) => `crawl_draft:${p.draft_id}`,
  }),
  draft_profile: defineJob({
    name: 'draft_profile',
    version: 1,
    maxAttempts: 3,
    about: 'Drafts a profile from the stored crawl, every value backed by quotes.',
    payload: Type.Object({ draft_id: DraftId }, { additionalProperties: false }),
    key: (p) => `draft_profile:${p.draft_id}`,
  }),
  regenerate_draft: defineJob({
    name: 'regenerate_draft',
    version: 1,
    maxAttempts: 3,
    about: 'Redrafts the parts an owner asked to regenerate, from the stored crawl.',
    payload: Type.Object({ draft_id: DraftId }, { additionalProperties: false }),
    key: (p) => `regenerate_draft:${p.draft_id}`,
  }),
  crawl_competitor: defineJob({
    name: 'crawl_competitor',
    version: 1,
    maxAttempts: 3,
    about: 'Crawls the competitor URL given on a draft.',
    payload: Type.Object({ draft_id: DraftId, url: Type.String({ maxLength: 2048 }) }, { additionalProperties: false }),
    key: (p) => `crawl_competitor:${p.draft_id}`,
  }),
  compare_draft: defineJob({
    name: 'compare_draft',
    version: 1,
    maxAttempts: 3,
    about: 'Compares a draft with its competitor, each point quoted from its own site.',
    payload: Type.Object({ draft_id: DraftId, url: Type.Optional(Type.String({ maxLength: 2048 })) }, { additionalProperties: false }),
    key: (p) => `compare_draft:${p.draft_id}`,
  }),
  send_mail: defineJob({
    name: 'send_mail',
    version: 1,
    maxAttempts: 25,
    about: 'Delivers one outbox mail by SMTP (exactly once; without SMTP_URL it stays in the outbox).',
    payload: Type.Object({ id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
    key: (p) => `mail:${p.id}`,
  }),
  check_badge: defineJob({
    name: 'check_badge',
    version: 1,
    maxAttempts: 3,
    about: "Looks for our badge on a queued free listing's homepage: awaiting_badge -> scheduled, or back when it is gone.",
    payload: Type.Object({ listing_id: ListingId }, { additionalProperties: false }),
    key: (p) => `check_badge:${p.listing_id}`,
  }),
  go_live: defineJob({
    name: 'go_live',
    version: 1,
    maxAttempts: 4,
    about: 'At the start of its launch week, checks the badge once more and makes a queued free listing live (or releases the week).',
    payload: Type.Object({ listing_id: ListingId }, { additionalProperties: false }),
    key: (p) => `go_live:${p.listing_id}`,
  }),
  notify_followers: defineJob({
    name: 'notify_followers',
    version: 1,
    maxAttempts: 10,
    about: 'Mails every follower of a listing about one update, exactly once each.',
    payload: Type.Object({ update_id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
    key: (p) => `notify_followers:${p.update_id}`,
  }),
  sweep_listings: defineJob({
    name: 'sweep_listings',
    version: 1,
    maxAttempts: 1,
    about: 'Enqueues due badge re-checks and go-lives, so no queued listing is left behind.',
    payload: NO_PAYLOAD,
    key: () => 'sweep_listings',
  }),
  recrawl_listing: defineJob({
    name: 'recrawl_listing',
    version: 1,
    maxAttempts: 3,
    about:
      "Re-crawls a listing's website for an operator batch: refreshes the values still in the AI's hands, proposes changes to the owner's own values, flags facts that vanished.",
    payload: Type.Object(
      { batch_id: Type.String({ format: 'uuid' }), listing_id: ListingId, host: Type.String({ minLength: 1, maxLength: 253 }) },
      { additionalProperties: false },
    ),
    // One waiting re-crawl per listing, whatever batch asked for it.
    key: (p) => `recrawl_listing:${p.listing_id}`,
    // One queue per host: jobs of one host run one at a time, in order (politeness), across batches and workers.
    queue: (p) => `recrawl:${p.host.toLowerCase()}`,
    // An operator's batch of hundreds or thousands: what a person is waiting on goes first.
    priority: BACKGROUND,
  }),
  // Scheduled jobs (pipeline/worker.ts): one waiting job each, so a late run replaces the one queued.
  refresh_views: defineJob({
    name: 'refresh_views',
    version: 1,
    maxAttempts: 1,
    about: 'Refreshes the ranking materialized views.',
    payload: NO_PAYLOAD,
    key: () => 'refresh_views',
  }),
  award_weeks: defineJob({
    name: 'award_weeks',
    version: 1,
    maxAttempts: 3,
    about: 'Awards Launch of the Week #1-#3 for finished weeks.',
    payload: NO_PAYLOAD,
    key: () => 'award_weeks',
  }),
  sweep_drafts: defineJob({
    name: 'sweep_drafts',
    version: 1,
    maxAttempts: 1,
    about: 'Fails drafts still in progress after 15 minutes, with a reason.',
    payload: NO_PAYLOAD,
    key: () => 'sweep_drafts',
  }),
  expire_records: defineJob({
    name: 'expire_records',
    version: 1,
    maxAttempts: 1,
    about: 'Deletes expired idempotency keys, links, sessions, codes and tokens.',
    payload: NO_PAYLOAD,
    key: () => 'expire_records',
  }),
  fulfil_order: defineJob({
    name: 'fulfil_order',
    version: 1,
    maxAttempts: 10,
    about: 'Fulfils every line of a paid order, each exactly once (enqueued with the payment record).',
    payload: Type.Object({ order_id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
    key: (p) => `fulfil_order:${p.order_id}`,
  }),
  refund_order: defineJob({
    name: 'refund_order',
    version: 1,
    maxAttempts: 10,
    about:
      'Refunds a paid order that lost a race (its launch was already applied, or the product went public through another listing): at Stripe, then in our books.',
    payload: Type.Object({ order_id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
    key: (p) => `refund_order:${p.order_id}`,
  }),
  expire_orders: defineJob({
    name: 'expire_orders',
    version: 1,
    maxAttempts: 1,
    about: 'Marks pending orders whose checkout has expired as expired.',
    payload: NO_PAYLOAD,
    key: () => 'expire_orders',
  }),
  issue_order_documents: defineJob({
    name: 'issue_order_documents',
    version: 1,
    maxAttempts: 10,
    about: "Issues a paid order's invoice and a refunded order's credit note (each once, numbered without gaps) and mails each to the buyer.",
    payload: Type.Object({ order_id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
    key: (p) => `order_documents:${p.order_id}`,
  }),
  refresh_domain_ratings: defineJob({
    name: 'refresh_domain_ratings',
    version: 1,
    maxAttempts: 3,
    about: "Asks the Domain Rating provider for every live listing's domain (a few at a time) and records this month's ratings.",
    payload: NO_PAYLOAD,
    key: () => 'refresh_domain_ratings',
    priority: BACKGROUND,
  }),
  refresh_revenue: defineJob({
    name: 'refresh_revenue',
    version: 1,
    maxAttempts: 3,
    about: "Computes each Stripe-connected listing's monthly recurring revenue from its active subscriptions and records it as verified.",
    payload: NO_PAYLOAD,
    key: () => 'refresh_revenue',
    priority: BACKGROUND,
  }),
  fetch_logos: defineJob({
    name: 'fetch_logos',
    version: 1,
    maxAttempts: 3,
    about: 'Fetches the logos of listings whose logo_url is new or changed (after drafting and re-crawls), resizes them and stores them for the pages.',
    payload: NO_PAYLOAD,
    key: () => 'fetch_logos',
    priority: BACKGROUND,
  }),
} as const;

export type JobName = keyof typeof JOBS;
