import type { Sql } from '../../sql/db.ts';

/**
 * What a signed-in person does to a listing on the site: vote, follow, review, flag a review.
 * The rules live in SQL (cast_vote, follow_listing, the unique keys of votes, follows and
 * reviews); each write calls directory_changed() so cached public reads drop what they showed.
 */
export type ActionOutcome = 'ok' | 'not_live' | 'own_listing' | 'not_found';

export async function liveListingId(sql: Sql, siteId: number, slug: string): Promise<{ id: number; ownerUserId: string | null } | null> {
  const [row] = await sql`select id::int as id, owner_user_id::text as owner from listings where site_id = ${siteId} and slug = ${slug} and status = 'live'`;
  return row ? { id: row.id, ownerUserId: row.owner } : null;
}

export async function vote(sql: Sql, listingId: number, userId: string): Promise<ActionOutcome> {
  return sql.begin(async (tx) => {
    const [{ r }] = await tx`select cast_vote(${listingId}, ${userId}) as r`;
    if (r === 'voted') {
      await tx`select directory_changed()`;
      return 'ok';
    }
    return r as ActionOutcome;
  }) as Promise<ActionOutcome>;
}

export async function unvote(sql: Sql, listingId: number, userId: string): Promise<ActionOutcome> {
  return sql.begin(async (tx) => {
    await tx`delete from votes where listing_id = ${listingId} and user_id = ${userId}`;
    await tx`select directory_changed()`;
    return 'ok';
  }) as Promise<ActionOutcome>;
}

export async function follow(sql: Sql, listingId: number, userId: string): Promise<ActionOutcome> {
  return sql.begin(async (tx) => {
    const [{ r }] = await tx`select follow_listing(${listingId}, ${userId}) as r`;
    if (r === 'following') {
      await tx`select directory_changed()`;
      return 'ok';
    }
    return r as ActionOutcome;
  }) as Promise<ActionOutcome>;
}

export async function unfollow(sql: Sql, listingId: number, userId: string): Promise<ActionOutcome> {
  return sql.begin(async (tx) => {
    await tx`delete from follows where listing_id = ${listingId} and user_id = ${userId}`;
    await tx`select directory_changed()`;
    return 'ok';
  }) as Promise<ActionOutcome>;
}

/** Writes the person's one review of a listing (a second one edits the first). Owners may review; theirs never count. */
export async function saveReview(sql: Sql, listingId: number, userId: string, rating: number, body: string | null): Promise<ActionOutcome> {
  return sql.begin(async (tx) => {
    const [l] = await tx`select 1 from listings where id = ${listingId} and status = 'live'`;
    if (!l) return 'not_live';
    await tx`insert into reviews (listing_id, user_id, rating, body) values (${listingId}, ${userId}, ${rating}, ${body})
             on conflict (listing_id, user_id) do update set rating = excluded.rating, body = excluded.body, updated_at = now()`;
    await tx`select directory_changed()`;
    return 'ok';
  }) as Promise<ActionOutcome>;
}

/** Flags a review of a live listing: it stops counting until an operator clears it. */
export async function flagReview(sql: Sql, reviewId: number, userId: string): Promise<ActionOutcome> {
  return sql.begin(async (tx) => {
    const [r] = await tx`select r.id from reviews r join listings l on l.id = r.listing_id where r.id = ${reviewId} and l.status = 'live'`;
    if (!r) return 'not_found';
    await tx`insert into review_flags (review_id, user_id) values (${reviewId}, ${userId}) on conflict do nothing`;
    await tx`update reviews set flagged = true where id = ${reviewId}`;
    await tx`select directory_changed()`;
    return 'ok';
  }) as Promise<ActionOutcome>;
}

/** The person's own state on a listing, read live (never cached): voted, following, their review; and the live vote count. */
export async function viewerState(sql: Sql, listingId: number, userId: string) {
  const [row] = await sql`
    select exists (select 1 from votes where listing_id = ${listingId} and user_id = ${userId}) as voted,
           exists (select 1 from follows where listing_id = ${listingId} and user_id = ${userId}) as following,
           (select count(*)::int from votes where listing_id = ${listingId}) as votes,
           (select count(*)::int from follows where listing_id = ${listingId}) as follows,
           (select json_build_object('id', id, 'rating', rating, 'body', body) from reviews where listing_id = ${listingId} and user_id = ${userId}) as review`;
  return row as { voted: boolean; following: boolean; votes: number; follows: number; review: { id: number; rating: number; body: string | null } | null };
}

/** Operator: flagged reviews, oldest flag first. */
export async function flaggedReviews(sql: Sql) {
  return sql`select r.id::int as id, l.slug, u.email, r.rating, r.body, count(f.user_id)::int as flags, min(f.created_at) as first_flagged
             from reviews r join listings l on l.id = r.listing_id join users u on u.id = r.user_id left join review_flags f on f.review_id = r.id
             where r.flagged group by r.id, l.slug, u.email order by min(f.created_at) nulls first, r.id`;
}

/** Operator: a flagged review counts again (its flags are dropped). */
export async function clearReview(sql: Sql, reviewId: number): Promise<boolean> {
  return sql.begin(async (tx) => {
    const rows = await tx`update reviews set flagged = false where id = ${reviewId} returning id`;
    await tx`delete from review_flags where review_id = ${reviewId}`;
    if (rows.length) await tx`select directory_changed()`;
    return rows.length > 0;
  }) as Promise<boolean>;
}

/** Operator: removes a review for good. */
export async function removeReview(sql: Sql, reviewId: number): Promise<boolean> {
  return sql.begin(async (tx) => {
    const rows = await tx`delete from reviews where id = ${reviewId} returning id`;
    if (rows.length) await tx`select directory_changed()`;
    return rows.length > 0;
  }) as Promise<boolean>;
}
