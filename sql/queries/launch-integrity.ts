import type { Sql } from '../db.ts';

/** The integrity numbers of one launch, over the votes cast during its launch week (launch_integrity). */
export interface LaunchIntegrityRow {
  listing_id: string;
  votes: number;
  counted_votes: number;
  votes_with_signals: number;
  new_account_votes: number;
  top_network_votes: number;
  burst_votes: number;
  discounted_votes: number;
  discounted: { reason: string; votes: number }[];
}

/** The integrity numbers of the given launches, keyed by listing id. */
export async function launchIntegrity(sql: Sql, listingIds: (number | bigint | string)[]): Promise<Map<string, LaunchIntegrityRow>> {
  if (!listingIds.length) return new Map();
  const rows = await sql<LaunchIntegrityRow[]>`
    select listing_id::text, votes, counted_votes, votes_with_signals, new_account_votes, top_network_votes, burst_votes,
           discounted_votes, discounted
    from launch_integrity(${listingIds.map(String)}::bigint[])`;
  return new Map(rows.map((r) => [r.listing_id, r]));
}
