// choose_free_listing: the free launch queue. Logic in core/listings/free-queue.ts (the slot is
// allocated in SQL) and the lifecycle jobs in core/listings/publishing.ts.
import { defineOperation, type Operation } from '../registry/operation.ts';
import { ListingIdPath, MyListing } from './my-listings-schemas.ts';
import { listingOwner, notes, NOT_YOURS, ownerView } from './my-listings.ts';
import { chooseFreeListing } from '../../core/listings/free-queue.ts';
import { BADGE_RECHECK_MINUTES } from '../../core/listings/publishing.ts';

export const freeListingOperations: Operation[] = [
  defineOperation({
    name: 'choose_free_listing',
    method: 'POST',
    path: '/me/listings/{listing_id}/free',
    tag: 'My listings',
    scope: 'listings:write',
    idempotent: true,
    summary: 'Publish your listing free (queued for a launch week)',
    description:
      "Publishes free: queues a listing saved by submit_draft for the earliest launch week with a free slot, 6-8 weeks out by default. That week is the first with a free slot in the site's free queue window. It goes live at the start of that week once our badge is found on its homepage. Answers the owner view (status awaiting_badge, launch_week, the badge to place).",
    params: ListingIdPath,
    notFoundParams: ['listing_id'],
    output: MyListing,
    notes: notes(
      NOT_YOURS,
      '409 with a code when the listing cannot join the queue: listing_not_submitted (not saved by submit_draft), listing_paid (paid plan), listing_already_published (live or otherwise past the queue), free_queue_full (every week from free_queue_min_weeks to free_queue_max_weeks already holds launch_slots_per_week listings). listing_exists when another listing of the same product on this site is live, scheduled or queued (a product has one public listing per site; the problem names it and how to claim it). Calling it again for a queued listing answers the same queued state and changes nothing.',
      "Slots: a week's slots are taken by every listing of the site with that launch week in any status but draft. The week is picked and taken in one SQL statement serialised per site, so no week is ever overbooked, however many calls race.",
      `Lifecycle (status and status_reason in get_my_listing): awaiting_badge until our badge (any kind, shape, mode or size from get_badges, linking to the listing's profile) is found in the visible HTML of the homepage (the listing's url), read through the SSRF-safe fetcher (10 s, 2 MB, public addresses only); then scheduled, shown among that week's upcoming launches. The homepage is checked at once, then every ${BADGE_RECHECK_MINUTES} minutes while queued. If the badge disappears, a scheduled listing goes back to awaiting_badge (reason badge_removed) and keeps its week. A homepage that cannot be read (down, slow, too large, redirecting to a private address) moves nothing; status_reason says why (site_unreachable, site_error, site_too_large, site_refused, site_not_html).`,
      'At the start of the week (Monday 00:00 UTC) the badge is checked once more: found, the listing goes live and appears in get_launch_week; not found, it goes back to draft with reason badge_missing_at_launch and its week is released (call choose_free_listing again once the badge is up). A homepage that cannot be read then is retried a few times before that. A live listing stays live whatever its homepage shows later.',
    ),
    handler: async ({ listing_id }, ctx) => {
      await chooseFreeListing(listingOwner(ctx), listing_id);
      return ownerView(ctx, listing_id);
    },
  }),
];
