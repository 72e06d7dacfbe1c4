import type { Sql } from '../db.ts';

export interface PublicReview {
  id: number;
  rating: number;
  body: string | null;
  author: string;
  created_at: string;
  updated_at: string;
  by_owner: boolean;
  /** The owner's one public answer, shown under the review. */
  owner_reply: string | null;
  owner_reply_at: string | null;
}

/**
 * Reviews shown on a listing page, newest first, each with the owner's reply. Hidden reviews (enough
 * flags, or removed by the site team) and those of suspended accounts are left out; reviews by the
 * listing's owner from before owners were refused are shown but marked (they never count).
 */
export async function listingReviews(sql: Sql, listingId: number, limit = 20): Promise<PublicReview[]> {
  return sql<PublicReview[]>`
    select r.id::int as id, r.rating, r.body, coalesce(nullif(u.name, ''), 'A member') as author,
           to_char(r.created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at,
           to_char(r.updated_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as updated_at,
           (r.user_id is not distinct from l.owner_user_id) as by_owner, r.owner_reply,
           to_char(r.owner_reply_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as owner_reply_at
    from reviews r join listings l on l.id = r.listing_id join users u on u.id = r.user_id
    where r.listing_id = ${listingId} and not r.flagged and u.suspended_at is null
    order by r.created_at desc, r.id desc limit ${limit}`;
}
