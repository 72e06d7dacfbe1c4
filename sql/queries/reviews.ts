import type { Sql } from '../db.ts';

export interface PublicReview {
  id: number;
  rating: number;
  body: string | null;
  author: string;
  created_at: string;
  updated_at: string;
  by_owner: boolean;
}

/**
 * Reviews shown on a listing page, newest first. Flagged reviews are hidden until an operator
 * clears them; reviews by the listing's owner are shown but marked (they never count).
 */
export async function listingReviews(sql: Sql, listingId: number, limit = 20): Promise<PublicReview[]> {
  return sql<PublicReview[]>`
    select r.id::int as id, r.rating, r.body, coalesce(nullif(u.name, ''), 'A member') as author,
           to_char(r.created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at,
           to_char(r.updated_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as updated_at,
           (r.user_id is not distinct from l.owner_user_id) as by_owner
    from reviews r join listings l on l.id = r.listing_id join users u on u.id = r.user_id
    where r.listing_id = ${listingId} and not r.flagged
    order by r.created_at desc, r.id desc limit ${limit}`;
}
