// The publishing lifecycle of a free listing, run by the worker:
//   awaiting_badge --badge found--> scheduled --week begins, badge still there--> live
//   scheduled --badge gone--> awaiting_badge (keeps its week; found again -> scheduled)
//   awaiting_badge or scheduled --week begins, no badge--> draft (reason badge_missing_at_launch,
//     the week is released; choose_free_listing queues it again)
// A live listing stays live whatever its homepage shows later. Each step re-reads the row under
// its lock and does nothing when the listing has moved on, so redelivered jobs are harmless.
import { transaction, type Sql } from '../../sql/db.ts';
import type { SafeFetch } from '../net/ssrf-fetch.ts';
import { readPage } from '../net/read-page.ts';
import { BACKGROUND, enqueue, JOBS } from '../jobs/index.ts';
import { startWaitingFeatures } from '../orders/featured.ts';
import { describeMiss, findBadge } from './badge-html.ts';
import { mailFollowersAtLaunch } from '../community/launch-notice.ts';

interface Row {
  id: number;
  status: string;
  url: string;
  slug: string;
  site_url: string;
  launch_week: string | null;
  due: boolean;
}

const readRow = async (sql: Sql, id: number, lock: boolean) =>
  (
    await sql<Row[]>`
  select l.id::int, l.status, l.url, l.slug, s.url as site_url, to_char(l.launch_week, 'YYYY-MM-DD') as launch_week,
         l.launch_week <= date_trunc('week', now() at time zone 'utc')::date as due
  from listings l join sites s on s.id = l.site_id where l.id = ${id} ${lock ? sql`for update of l` : sql``}`
  )[0];

type Verdict = { found: true } | { found: false; reason: string; detail: string | null; siteDown: boolean };

async function verdictFor(fetcher: SafeFetch, row: Row): Promise<Verdict> {
  const page = await readPage(fetcher, row.url, { html: true });
  // A homepage that is not there (404) is as good as one without the badge; anything else is an outage.
  if (!page.ok) return { found: false, reason: page.reason === 'not_found' ? 'site_error' : page.reason, detail: page.detail, siteDown: true };
  const v = await findBadge(page.text, row.site_url, row.slug);
  return v.found ? v : { found: false, reason: v.reason, detail: await describeMiss(page.text, row.site_url, row.slug, row.url, v.reason), siteDown: false };
}

const QUEUED = ['awaiting_badge', 'scheduled'];

/** check_badge: one look at the homepage, then the move it calls for. Returns the new status. */
export async function checkBadge(sql: Sql, fetcher: SafeFetch, id: number): Promise<string | null> {
  const first = await readRow(sql, id, false);
  if (!first || !QUEUED.includes(first.status)) return first?.status ?? null;
  const v = await verdictFor(fetcher, first); // outside the transaction: a slow site holds no lock
  return transaction(sql, async (t) => {
    const row = await readRow(t, id, true);
    if (!row || !QUEUED.includes(row.status)) return row?.status ?? null;
    let status = row.status;
    let reason: string | null = null;
    let detail: string | null = null;
    if (v.found) status = 'scheduled';
    else if (v.siteDown) {
      reason = v.reason;
      detail = v.detail;
    } // an outage alone moves nothing
    else {
      status = 'awaiting_badge';
      reason = row.status === 'scheduled' ? 'badge_removed' : v.reason;
      detail = v.detail;
    }
    await t`
      update listings set status = ${status}, status_reason = ${reason}, status_detail = ${detail}, badge_checked_at = now(),
        badge_seen_at = case when ${v.found} then now() else badge_seen_at end,
        status_changed_at = case when status <> ${status} then now() else status_changed_at end
      where id = ${id}`;
    // Upcoming-week pages list scheduled listings.
    if (status !== row.status) await t`select directory_changed()`;
    return status;
  });
}

/**
 * go_live: at the start of the listing's week, one more badge check, then live or back to draft.
 * A site that cannot be read is retried while attempts remain (finalAttempt false: throws).
 */
export async function goLive(sql: Sql, fetcher: SafeFetch, id: number, finalAttempt: boolean): Promise<string | null> {
  const first = await readRow(sql, id, false);
  if (!first || !QUEUED.includes(first.status) || !first.due) return first?.status ?? null;
  const v = await verdictFor(fetcher, first);
  if (!v.found && v.siteDown && !finalAttempt) throw new Error(`go_live ${id}: ${v.reason}: ${v.detail}`);
  return transaction(sql, async (t) => {
    const row = await readRow(t, id, true);
    if (!row || !QUEUED.includes(row.status) || !row.due) return row?.status ?? null;
    if (v.found) {
      await t`update listings set status = 'live', launched_at = now(), status_reason = null, status_detail = null,
                badge_checked_at = now(), badge_seen_at = now(), status_changed_at = now(), updated_at = now() where id = ${id}`;
      await startWaitingFeatures(t, id);
      await enqueue(t, JOBS.refresh_views, {}); // the week's ranking view shows it on the next refresh
      await mailFollowersAtLaunch(t, id); // those who pressed "notify me" on the coming-soon page
    } else {
      await t`update listings set status = 'draft', launch_week = null, free_queued_at = null, status_reason = 'badge_missing_at_launch',
                status_detail = ${v.siteDown ? v.detail : `our badge was not found on ${row.url} when the week began`},
                badge_checked_at = now(), status_changed_at = now(), updated_at = now() where id = ${id}`;
    }
    await t`select directory_changed()`;
    return v.found ? 'live' : 'draft';
  });
}

/** How often a queued listing's badge is looked at again. */
export const BADGE_RECHECK_MINUTES = 60;

/** sweep_listings: go-lives that are due and badge re-checks that are due, enqueued (keys make repeats harmless). */
export async function sweepListings(sql: Sql): Promise<{ goLive: number; recheck: number }> {
  return transaction(sql, async (t) => {
    const due = await t<{ id: number }[]>`
      select id::int from listings where status in ('awaiting_badge', 'scheduled')
        and launch_week <= date_trunc('week', now() at time zone 'utc')::date`;
    for (const r of due) await enqueue(t, JOBS.go_live, { listing_id: r.id });
    const stale = await t<{ id: number }[]>`
      select id::int from listings where status in ('awaiting_badge', 'scheduled')
        and launch_week > date_trunc('week', now() at time zone 'utc')::date
        and (badge_checked_at is null or badge_checked_at < now() - make_interval(mins => ${BADGE_RECHECK_MINUTES}))`;
    // Re-checks nobody is waiting on: behind an owner's first check and every submitted site's crawl.
    for (const r of stale) await enqueue(t, JOBS.check_badge, { listing_id: r.id }, { priority: BACKGROUND });
    return { goLive: due.length, recheck: stale.length };
  });
}
