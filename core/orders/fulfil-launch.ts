// Launch-week fulfilment (launch, launch_bundle's launch, skip_queue, relaunch): the only code of
// the orders module that moves a listing's status, plan and launch week. It uses the listings
// columns directly with its own slot check (the site row locked, then the week's taken slots
// counted). The free queue's allocate_free_week (SQL) counts the same slots on its own.
import type { Sql } from '../../sql/db.ts';
import { startWaitingFeatures } from './featured.ts';

export interface LaunchResult {
  summary: string;
  [detail: string]: unknown;
}

interface ListingState {
  status: string;
  plan: string;
  launch_week: string | null;
  launched: boolean;
}

async function lockListing(tx: Sql, listingId: string): Promise<ListingState | null> {
  const [l] = await tx<ListingState[]>`
    select status, plan, to_char(launch_week, 'YYYY-MM-DD') as launch_week, (status = 'live' or launched_at is not null) as launched
    from listings where id = ${listingId} for update`;
  return l ?? null;
}

/**
 * The chosen week if it still has a free slot, else the next week that has one (up to 52 weeks
 * on). The site row is locked first, so two fulfilments cannot both take the last slot.
 */
async function weekWithSlot(tx: Sql, siteId: number, listingId: string, wanted: string): Promise<string | null> {
  await tx`select 1 from sites where id = ${siteId} for update`;
  const [row] = await tx<{ week: string | null }[]>`
    select to_char(w, 'YYYY-MM-DD') as week
    from generate_series(${wanted}::date, ${wanted}::date + 7 * 52, interval '7 days') w
    where (select count(*) from listings where site_id = ${siteId} and launch_week = w::date and id <> ${listingId}
             and status in ('scheduled', 'live', 'awaiting_badge'))
          < (select launch_slots_per_week from sites where id = ${siteId})
    order by w limit 1`;
  return row?.week ?? null;
}

const moved = (wanted: string, got: string) =>
  got === wanted ? {} : { requested_week: wanted, moved_because: `week ${wanted} filled up before payment; the next week with a free slot was taken` };

/** launch: the paid plan, live at once (no week) or scheduled into the chosen week; no badge needed. */
export async function fulfilLaunch(tx: Sql, siteId: number, listingId: string, week: string | null): Promise<LaunchResult> {
  const l = await lockListing(tx, listingId);
  if (!l) return { summary: 'Not applied: the listing no longer exists.', applied: false };
  const before = { status: l.status, plan: l.plan, launch_week: l.launch_week };
  if (l.launched) {
    await tx`update listings set plan = 'paid', updated_at = now() where id = ${listingId}`;
    return { summary: 'The listing had already launched; it is now on the paid plan.', before, applied: true };
  }
  if (!week) {
    await tx`update listings set status = 'live', plan = 'paid', launch_week = date_trunc('week', now() at time zone 'utc')::date,
                                 launched_at = now(), updated_at = now() where id = ${listingId}`;
    await startWaitingFeatures(tx, listingId);
    return { summary: "Live now on the paid plan, in this week's launches.", before, applied: true };
  }
  const got = await weekWithSlot(tx, siteId, listingId, week);
  if (!got) {
    await tx`update listings set status = 'live', plan = 'paid', launch_week = date_trunc('week', now() at time zone 'utc')::date,
                                 launched_at = now(), updated_at = now() where id = ${listingId}`;
    await startWaitingFeatures(tx, listingId);
    return { summary: `No launch week had a free slot; live now on the paid plan instead of week ${week}.`, before, requested_week: week, applied: true };
  }
  await tx`update listings set status = 'scheduled', plan = 'paid', launch_week = ${got}::date, launched_at = null, updated_at = now() where id = ${listingId}`;
  return { summary: `Scheduled on the paid plan for the launch week of ${got}; no badge needed.`, before, week: got, ...moved(week, got), applied: true };
}

/** skip_queue: the queued free listing moves to the chosen week (its badge is still needed to go live). */
export async function fulfilSkipQueue(tx: Sql, siteId: number, listingId: string, week: string): Promise<LaunchResult> {
  const l = await lockListing(tx, listingId);
  if (!l) return { summary: 'Not applied: the listing no longer exists.', applied: false };
  if (!['awaiting_badge', 'scheduled'].includes(l.status) || l.plan !== 'free') {
    return { summary: `Not applied: the listing is no longer a free listing in the queue (status ${l.status}, plan ${l.plan}); refund it.`, applied: false };
  }
  const got = await weekWithSlot(tx, siteId, listingId, week);
  if (!got) return { summary: 'Not applied: no launch week has a free slot; refund it.', applied: false };
  await tx`update listings set launch_week = ${got}::date, updated_at = now() where id = ${listingId}`;
  return {
    summary: `Moved from the free-queue week ${l.launch_week ?? '(none)'} to the week of ${got}.`,
    previous_week: l.launch_week,
    week: got,
    ...moved(week, got),
    applied: true,
  };
}

/**
 * relaunch: a launched listing gets a new launch week and so a fresh spot in that week's ranking.
 * It stays live (public) meanwhile; the weekly ranking places it in its new week.
 */
export async function fulfilRelaunch(tx: Sql, siteId: number, listingId: string, week: string): Promise<LaunchResult> {
  const l = await lockListing(tx, listingId);
  if (!l) return { summary: 'Not applied: the listing no longer exists.', applied: false };
  const got = (await weekWithSlot(tx, siteId, listingId, week)) ?? week;
  await tx`update listings set launch_week = ${got}::date, updated_at = now() where id = ${listingId}`;
  return {
    summary: `Relaunched in the week of ${got} (previous launch week ${l.launch_week ?? 'none'}).`,
    previous_week: l.launch_week,
    week: got,
    ...moved(week, got),
    applied: true,
  };
}

/** Refund of a launch line: undone while the listing has not gone live; a launch that happened stays. */
export async function reverseLaunch(
  tx: Sql,
  listingId: string,
  product: string,
  details: Record<string, unknown>,
): Promise<{ reversed: boolean; note: string }> {
  const l = await lockListing(tx, listingId);
  if (!l) return { reversed: false, note: 'The listing no longer exists.' };
  if (product === 'launch' || product === 'launch_bundle') {
    if (l.status === 'live') {
      await tx`update listings set plan = 'free', updated_at = now() where id = ${listingId}`;
      return { reversed: false, note: 'Cannot be undone: the listing has launched and stays live; its plan is back to free.' };
    }
    const before = (details.before ?? {}) as { status?: string; launch_week?: string | null };
    await tx`update listings set status = ${before.status ?? 'draft'}, plan = 'free', launch_week = ${before.launch_week ?? null}::date, updated_at = now() where id = ${listingId}`;
    return { reversed: true, note: `Not launched yet: back to status ${before.status ?? 'draft'} on the free plan.` };
  }
  if (product === 'skip_queue') {
    if (l.status === 'live') return { reversed: false, note: 'Cannot be undone: the listing has already launched in the bought week.' };
    await tx`update listings set launch_week = ${(details.previous_week as string | null) ?? null}::date, updated_at = now() where id = ${listingId}`;
    return { reversed: true, note: `Back to the free-queue week ${details.previous_week ?? '(none)'}.` };
  }
  return { reversed: false, note: 'Cannot be undone: a relaunch week once given is kept (its ranking spot may already have votes).' };
}
