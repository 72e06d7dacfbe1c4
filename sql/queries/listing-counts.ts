import { wholeNumber } from './summaries.ts';

/**
 * A site's listings in one status, exactly and without reading them: listing_counts as of the last
 * refresh plus the moves since (listing_count_deltas). The listings triggers write the moves in the
 * same transactions as the listings, and a refresh folds them in atomically, so every snapshot sees
 * the sum equal to the count (about 1 ms, where counting read every index entry: 850k at a million).
 * SQL text (an int expression) with the site and status written in: both are ours, never input.
 */
export function exactListingCount(siteId: number, status: 'live' | 'scheduled'): string {
  return keptCount('listing_counts', 'listing_count_deltas', (t) => `${t}.site_id = ${wholeNumber(siteId)} and ${t}.status = '${status}'`);
}

/** A kept count (its table's `listings`) plus its queue's pending moves (`delta`), rows chosen by where(alias). */
const keptCount = (counts: string, deltas: string, where: (t: string) => string) =>
  `((select coalesce(sum(c.listings), 0) from ${counts} c where ${where('c')})
    + (select coalesce(sum(d.delta), 0) from ${deltas} d where ${where('d')}))::int`;
