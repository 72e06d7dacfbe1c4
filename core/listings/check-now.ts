// check_badge_now: the owner asks for the badge check at once instead of waiting for the hourly
// one. At most one a minute per listing: the minute is taken in the same statement that reads the
// last check, so two presses at once run one check.
import { conflict, DomainError } from '../errors/index.ts';
import type { SafeFetch } from '../net/ssrf-fetch.ts';
import { missingListing, ownsListing, type ListingOwner } from './own-listing.ts';
import { checkBadge } from './publishing.ts';

export const CHECK_NOW_INTERVAL_SECONDS = 60;

export async function checkBadgeNow(owner: Pick<ListingOwner, 'sql' | 'userId' | 'siteId'>, id: number, fetcher: SafeFetch): Promise<string | null> {
  const { sql } = owner;
  const [row] = await sql<{ status: string; waited: number | null; taken: boolean }[]>`
    with mine as (
      select l.id, l.status, extract(epoch from now() - l.badge_checked_at)::int as waited
      from listings l where l.id = ${id} and l.site_id = ${owner.siteId} and ${ownsListing(sql, owner.userId)}
      for update
    ), took as (
      update listings l set badge_checked_at = now() from mine
      where l.id = mine.id and mine.status in ('awaiting_badge', 'scheduled')
        and (mine.waited is null or mine.waited >= ${CHECK_NOW_INTERVAL_SECONDS})
      returning l.id
    )
    select mine.status, mine.waited, exists (select 1 from took) as taken from mine`;
  if (!row) throw missingListing(id);
  if (row.status !== 'awaiting_badge' && row.status !== 'scheduled')
    throw conflict('listing_not_queued', `The listing is ${row.status}: only a listing awaiting its badge or scheduled has a badge to check.`);
  if (!row.taken) {
    const wait = CHECK_NOW_INTERVAL_SECONDS - (row.waited ?? 0);
    throw new DomainError(
      'badge_check_too_soon',
      `The badge was checked ${row.waited} seconds ago; a check on request runs at most once a minute. Try again in ${wait} seconds.`,
      { retryAfterSeconds: Math.max(1, wait) },
    );
  }
  return checkBadge(sql, fetcher, id);
}
