import { transaction, type Sql } from '../../sql/db.ts';
import { ownsListing } from '../listings/own-listing.ts';
import type { VoteSignals } from './vote-signals.ts';

/**
 * What a signed-in person does to a listing on the site: vote, follow, review, flag a review.
 * The rules live in SQL (cast_vote, follow_listing, the unique keys of votes, follows and
 * reviews); each write calls directory_changed() so cached public reads drop what they showed.
 */
export type ActionOutcome = 'ok' | 'not_live' | 'own_listing' | 'not_found' | 'not_owner' | 'already_replied';

/** Whether the person owns the listing (the one ownership rule, co-owners included). */
async function owns(sql: Sql, listingId: number, userId: string): Promise<boolean> {
  const [row] = await sql`select 1 from listings l where l.id = ${listingId} and ${ownsListing(sql, userId)}`;
  return Boolean(row);
}

export async function liveListingId(sql: Sql, siteId: number, slug: string): Promise<{ id: number; ownerUserId: string | null } | null> {
  const [row] = await sql`select id::int as id, owner_user_id::text as owner from listings where site_id = ${siteId} and slug = ${slug} and status = 'live'`;
  return row ? { id: row.id, ownerUserId: row.owner } : null;
}

/** Votes for a listing; the first vote of a person for it keeps its signals (record_vote), never the address. */
export async function vote(sql: Sql, listingId: number, userId: string, signals: VoteSignals): Promise<ActionOutcome> {
  return transaction(sql, async (tx): Promise<ActionOutcome> => {
    // cast_vote knows the submitter; co-owners (verified claims) are owners too.
    if (await owns(tx, listingId, userId)) return 'own_listing';
    const [{ r }] = await tx`
      select record_vote(${listingId}, ${userId}, ${signals.network}, ${signals.uaFamily}, ${signals.signIn}, ${signals.visitor}) as r`;
    if (r === 'voted') {
      await tx`select directory_changed()`;
      return 'ok';
    }
    return r as ActionOutcome;
  });
}

export async function unvote(sql: Sql, listingId: number, userId: string): Promise<ActionOutcome> {
  return transaction(sql, async (tx): Promise<ActionOutcome> => {
    // A discounted vote is the site team's record: taking it back and voting anew would launder it.
    await tx`delete from votes where listing_id = ${listingId} and user_id = ${userId} and discounted_at is null`;
    await tx`select directory_changed()`;
    return 'ok';
  });
}

export async function follow(sql: Sql, listingId: number, userId: string): Promise<ActionOutcome> {
  return transaction(sql, async (tx): Promise<ActionOutcome> => {
    const [{ r }] = await tx`select follow_listing(${listingId}, ${userId}) as r`;
    if (r === 'following') {
      await tx`select directory_changed()`;
      return 'ok';
    }
    return r as ActionOutcome;
  });
}

export async function unfollow(sql: Sql, listingId: number, userId: string): Promise<ActionOutcome> {
  return transaction(sql, async (tx): Promise<ActionOutcome> => {
    await tx`delete from follows where listing_id = ${listingId} and user_id = ${userId}`;
    await tx`select directory_changed()`;
    return 'ok';
  });
}

/** Writes the person's one review of a listing (a second one edits the first). Owners cannot review their own listing. */
export async function saveReview(sql: Sql, listingId: number, userId: string, rating: number, body: string | null): Promise<ActionOutcome> {
  return transaction(sql, async (tx): Promise<ActionOutcome> => {
    const [l] = await tx`select 1 from listings where id = ${listingId} and status = 'live'`;
    if (!l) return 'not_live';
    if (await owns(tx, listingId, userId)) return 'own_listing';
    await tx`insert into reviews (listing_id, user_id, rating, body) values (${listingId}, ${userId}, ${rating}, ${body})
             on conflict (listing_id, user_id) do update set rating = excluded.rating, body = excluded.body, updated_at = now()`;
    await tx`select directory_changed()`;
    return 'ok';
  });
}

/**
 * Flags a review of a live listing. A flag alone hides nothing: review_recheck hides the review
 * once enough distinct, old-enough accounts flagged it (the site's settings), and it waits in the
 * site team's queue either way. The listing's owners cannot flag reviews of it.
 */
export async function flagReview(sql: Sql, reviewId: number, userId: string): Promise<ActionOutcome> {
  return transaction(sql, async (tx): Promise<ActionOutcome> => {
    const [r] = await tx`select r.id, r.listing_id::int from reviews r join listings l on l.id = r.listing_id where r.id = ${reviewId} and l.status = 'live'`;
    if (!r) return 'not_found';
    if (await owns(tx, r.listing_id, userId)) return 'own_listing';
    await tx`insert into review_flags (review_id, user_id) values (${reviewId}, ${userId}) on conflict do nothing`;
    const [{ hidden }] = await tx`select review_recheck(${reviewId}) as hidden`;
    if (hidden) await tx`select directory_changed()`;
    return 'ok';
  });
}

/** The owner's one public answer to a review of their listing, shown under it. */
export async function replyToReview(sql: Sql, reviewId: number, userId: string, text: string): Promise<ActionOutcome> {
  return transaction(sql, async (tx): Promise<ActionOutcome> => {
    const [r] =
      await tx`select r.id, r.listing_id::int, r.owner_reply from reviews r join listings l on l.id = r.listing_id where r.id = ${reviewId} and l.status = 'live' for update of r`;
    if (!r) return 'not_found';
    if (!(await owns(tx, r.listing_id, userId))) return 'not_owner';
    if (r.owner_reply !== null) return 'already_replied';
    await tx`update reviews set owner_reply = ${text}, owner_reply_at = now(), owner_reply_by = ${userId} where id = ${reviewId}`;
    await tx`select directory_changed()`;
    return 'ok';
  });
}

/** The person's own state on a listing, read live (never cached): voted, following, their review, whether they own it; and the live vote and follow counts (those that count). */
export async function viewerState(sql: Sql, listingId: number, userId: string) {
  const [row] = await sql`
    select exists (select 1 from votes where listing_id = ${listingId} and user_id = ${userId}) as voted,
           exists (select 1 from follows where listing_id = ${listingId} and user_id = ${userId}) as following,
           (select count(*)::int from counted_votes where listing_id = ${listingId}) as votes,
           (select count(*)::int from counted_follows where listing_id = ${listingId}) as follows,
           (select json_build_object('id', id, 'rating', rating, 'body', body) from reviews where listing_id = ${listingId} and user_id = ${userId}) as review,
           exists (select 1 from listings l where l.id = ${listingId} and ${ownsListing(sql, userId)}) as owns`;
  return row as {
    voted: boolean;
    following: boolean;
    votes: number;
    follows: number;
    review: { id: number; rating: number; body: string | null } | null;
    owns: boolean;
  };
}
