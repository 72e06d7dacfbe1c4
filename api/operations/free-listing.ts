// choose_free_listing: the free launch queue. Logic in core/listings/free-queue.ts (the slot is
// allocated in SQL) and the lifecycle jobs in core/listings/publishing.ts.
import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { ListingIdPath, MyListing } from './my-listings-schemas.ts';
import { listingOwner, notes, NOT_YOURS, ownerView } from './my-listings.ts';
import { chooseFreeListing } from '../../core/listings/free-queue.ts';
import { BADGE_RECHECK_MINUTES } from '../../core/listings/publishing.ts';
import { freeListingExamples } from './free-listing-examples.ts';
import { CHECK_NOW_INTERVAL_SECONDS, checkBadgeNow } from '../../core/listings/check-now.ts';
import { createSafeFetcher } from '../../core/net/ssrf-fetch.ts';

export const freeListingOperations: Operation[] = [
  defineOperation({
    name: 'choose_free_listing',
    examples: freeListingExamples.choose_free_listing,
    method: 'POST',
    path: '/me/listings/{listing_id}/free',
    tag: 'My listings',
    scope: 'listings:write',
    idempotent: true,
    summary: 'Publish your listing free (queued for a launch week)',
    description:
      "Queues a listing saved by submit_draft for the earliest launch week with a free slot, usually 6 to 8 weeks out. A person must place one of our badges (get_badges) on the product's homepage: the listing goes live at the start of its week only if the badge is found. Returns the owner view with status awaiting_badge, launch_week and the badge's embed code.",
    params: ListingIdPath,
    notFoundParams: ['listing_id'],
    body: Type.Object(
      {
        week: Type.Optional(
          Type.String({
            format: 'date',
            description: 'A Monday inside the free queue window with a slot left, e.g. 2027-01-04; default: the earliest such week.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    output: MyListing,
    notes: notes(
      NOT_YOURS,
      'week (optional): a Monday from free_queue_min_weeks to free_queue_max_weeks weeks ahead; another date is 400 naming week, a week whose slots are all taken is 409 free_week_full. The body may be left out.',
      '409 with a code when the listing cannot join the queue: listing_not_submitted (not saved by submit_draft), listing_paid (paid plan), listing_already_published (live or otherwise past the queue), free_queue_full (every week from free_queue_min_weeks to free_queue_max_weeks already holds launch_slots_per_week listings). listing_exists when another listing of the same product on this site is live, scheduled or queued (a product has one public listing per site; the problem names it and how to claim it). Calling it again for a queued listing answers the same queued state and changes nothing.',
      "Slots: a week's slots are taken by every listing of the site with that launch week in any status but draft. The week is picked and taken in one SQL statement serialised per site, so no week is ever overbooked, however many calls race.",
      `Lifecycle (status and status_reason in get_my_listing): awaiting_badge until our badge (any kind, shape, mode or size from get_badges, linking to the listing's profile) is found in the visible HTML of the homepage (the listing's url), read through the SSRF-safe fetcher (10 s, 2 MB, public addresses only); then scheduled, shown among that week's upcoming launches. The homepage is checked at once, then every ${BADGE_RECHECK_MINUTES} minutes while queued. If the badge disappears, a scheduled listing goes back to awaiting_badge (reason badge_removed) and keeps its week. A homepage that cannot be read (down, slow, too large, redirecting to a private address) moves nothing; status_reason says why (site_unreachable, site_error, site_too_large, site_refused, site_not_html).`,
      'At the start of the week (Monday 00:00 UTC) the badge is checked once more: found, the listing goes live and appears in get_launch_week; not found, it goes back to draft with reason badge_missing_at_launch and its week is released (call choose_free_listing again once the badge is up). A homepage that cannot be read then is retried a few times before that. A live listing stays live whatever its homepage shows later.',
    ),
    handler: async ({ listing_id, week }, ctx) => {
      await chooseFreeListing(listingOwner(ctx), listing_id, week);
      return ownerView(ctx, listing_id);
    },
  }),

  defineOperation({
    name: 'check_badge_now',
    examples: freeListingExamples.check_badge_now,
    method: 'POST',
    path: '/me/listings/{listing_id}/badge-check',
    tag: 'My listings',
    scope: 'listings:write',
    openWorld: true,
    summary: 'Check your homepage for the badge now',
    description:
      'Checks the homepage for our badge now instead of at the hourly check, for a listing queued by choose_free_listing; use it once the person has placed a badge from get_badges. Returns the owner view: scheduled when found, else status_detail says what the homepage has. At most once a minute.',
    params: ListingIdPath,
    notFoundParams: ['listing_id'],
    output: MyListing,
    notes: notes(
      NOT_YOURS,
      'The answer is the owner view after the check: status scheduled when the badge was found, else status_reason and status_detail say what the homepage has instead (e.g. "no link to /listings/x on https://...; found 3 other links").',
      `409 listing_not_queued unless the listing is awaiting_badge or scheduled. At most one check a minute per listing, counting the hourly checks: sooner is 429 badge_check_too_soon with Retry-After and the seconds in the message (${CHECK_NOW_INTERVAL_SECONDS} s). The homepage is read as choose_free_listing's checks read it (SSRF-safe fetcher, 10 s, 2 MB); a homepage that cannot be read moves nothing and status_reason says why.`,
    ),
    handler: async ({ listing_id }, ctx) => {
      const fetcher = createSafeFetcher({
        allowLoopback: ctx.config.allowLoopbackFetch,
        userAgent: ctx.config.crawlerUserAgent,
        timeoutMs: 10_000,
        maxBytes: 2_000_000,
      });
      await checkBadgeNow(listingOwner(ctx), listing_id, fetcher);
      return ownerView(ctx, listing_id);
    },
  }),
];
