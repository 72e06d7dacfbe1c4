// choose_free_listing: queues the caller's submitted listing in the earliest free launch week of
// the site's window (allocate_free_week, serialised per site in SQL) and schedules its badge check
// and its go-live at the start of that week, all in one transaction.
import { transaction } from '../../sql/db.ts';
import { conflict, invalidFields } from '../errors/index.ts';
import { enqueue, JOBS } from '../jobs/index.ts';
import { ownListingId, type ListingOwner } from './own-listing.ts';
import { assertNotListed } from './product-key.ts';

/** Monday 00:00 UTC of a launch week (YYYY-MM-DD). */
export const weekStart = (week: string) => new Date(`${week}T00:00:00Z`);

/** Queues the listing in `week` (a Monday of the window with room) when given, else in the earliest week with room. */
export async function chooseFreeListing(owner: ListingOwner, id: number, week?: string): Promise<void> {
  await transaction(owner.sql, async (t) => {
    const listingId = await ownListingId(t, owner, id, { forUpdate: true });
    const [l] = await t<{ status: string; plan: string; queued: boolean; submitted: boolean; url: string }[]>`
      select l.status, l.plan, l.url, l.free_queued_at is not null as queued,
             exists (select 1 from drafts d where d.listing_id = l.id and d.submitted_at is not null) as submitted
      from listings l where l.id = ${listingId}`;
    // Calling again answers the same queued state.
    if (l.queued && (l.status === 'awaiting_badge' || l.status === 'scheduled')) return;
    if (l.plan === 'paid') throw conflict('listing_paid', 'The listing is on the paid plan; its launch week comes with the paid launch.');
    if (l.status !== 'draft')
      throw conflict('listing_already_published', `The listing is ${l.status}; only a listing not yet published can join the free queue.`);
    if (!l.submitted) throw conflict('listing_not_submitted', 'Free launches are for listings saved by submit_draft.');
    // Re-checked at publishing, under the product's lock: another listing of it may have gone public since submit_draft.
    await assertNotListed(t, owner.siteId, l.url, { except: listingId, userId: owner.userId });
    const allocate = week === undefined ? t`allocate_free_week(${listingId})` : t`allocate_free_week(${listingId}, ${week}::date)`;
    const [{ week: got, min_week, max_week }] = await t<{ week: string | null; min_week: string; max_week: string }[]>`
      select to_char(${allocate}, 'YYYY-MM-DD') as week,
             to_char(date_trunc('week', now() at time zone 'utc')::date + 7 * s.free_queue_min_weeks, 'YYYY-MM-DD') as min_week,
             to_char(date_trunc('week', now() at time zone 'utc')::date + 7 * s.free_queue_max_weeks, 'YYYY-MM-DD') as max_week
      from sites s where s.id = ${owner.siteId}`;
    if (!got && week !== undefined) {
      const monday = weekStart(week).getUTCDay() === 1;
      if (!monday || week < min_week || week > max_week)
        throw invalidFields([{ field: 'week', message: `must be a Monday from ${min_week} to ${max_week} (the free queue's weeks)` }]);
      throw conflict('free_week_full', `The week of ${week} has no free slot left; choose another week from ${min_week} to ${max_week}.`);
    }
    if (!got) throw conflict('free_queue_full', `Every launch week from ${min_week} to ${max_week} is full; try again later or buy a launch.`);
    await enqueue(t, JOBS.check_badge, { listing_id: listingId });
    await enqueue(t, JOBS.go_live, { listing_id: listingId }, { runAt: weekStart(got) });
  });
}
