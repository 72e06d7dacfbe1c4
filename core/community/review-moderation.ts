import { transaction, type Sql } from '../../sql/db.ts';
import { recordAudit } from '../audit.ts';
import { enqueueMail } from '../mail/outbox.ts';

/**
 * The site team's queue of flagged reviews and its two decisions. Nothing is deleted: keep resolves
 * the flags (kept as a record, no longer counting), remove hides the review for good (kept, so a
 * mistake can be undone by keeping it). The reviewer and every flagger get a short mail with the outcome.
 */
export interface FlaggedReview {
  id: number;
  slug: string;
  email: string;
  rating: number;
  body: string | null;
  hidden: boolean;
  flags: number;
  flaggers: string[];
  first_flagged: Date;
}

/** Reviews with open flags, most flagged first; each with who flagged it. */
export async function flaggedReviews(sql: Sql): Promise<FlaggedReview[]> {
  return sql<FlaggedReview[]>`
    select r.id::int as id, l.slug, u.email, r.rating, r.body, r.flagged as hidden, count(*)::int as flags,
           array_agg(fu.email order by f.created_at, fu.email) as flaggers, min(f.created_at) as first_flagged
    from review_flags f join reviews r on r.id = f.review_id join listings l on l.id = r.listing_id
    join users u on u.id = r.user_id join users fu on fu.id = f.user_id
    where f.resolved_at is null and r.moderation is distinct from 'removed'
    group by r.id, l.slug, u.email
    order by count(*) desc, min(f.created_at), r.id`;
}

export type ReviewDecision = 'keep' | 'remove';

const reviewState = async (sql: Sql, id: number) =>
  (
    await sql`
    select r.id::int, r.listing_id::int, r.rating, r.body, r.flagged as hidden, r.moderation, r.moderation_reason,
           (select count(*)::int from review_flags f where f.review_id = r.id and f.resolved_at is null) as open_flags
    from reviews r where r.id = ${id}`
  )[0] ?? null;

/** Decides on a review: returns false when there is no such review. */
export async function decideReview(sql: Sql, reviewId: number, decision: ReviewDecision, reason: string, actor: string): Promise<boolean> {
  return transaction(sql, async (tx) => {
    const before = await reviewState(tx, reviewId);
    if (!before) return false;
    const [r] = await tx`
      select l.name, l.slug, s.name as site_name, u.email from reviews r join listings l on l.id = r.listing_id
      join sites s on s.id = l.site_id join users u on u.id = r.user_id where r.id = ${reviewId} for update of r`;
    const flaggers = await tx<{ email: string }[]>`
      update review_flags f set resolved_at = now() from users u
      where f.review_id = ${reviewId} and f.resolved_at is null and u.id = f.user_id returning u.email`;
    await tx`update reviews set moderation = ${decision === 'keep' ? 'kept' : 'removed'}, moderated_at = now(), moderation_reason = ${reason} where id = ${reviewId}`;
    await tx`select review_recheck(${reviewId})`;
    await recordAudit(tx, { actor, action: `review.${decision}`, target: `review:${reviewId}`, before, after: await reviewState(tx, reviewId) });
    const outcome =
      decision === 'keep'
        ? `The site team read it and kept it: it stays on the listing and counts towards the rating.`
        : `The site team read it and removed it: it is no longer shown and does not count towards the rating.`;
    await enqueueMail(tx, {
      to: r.email,
      kind: 'review_decision',
      subject: `Your review of ${r.name} on ${r.site_name}`,
      text: `Your review of ${r.name} was flagged by other people. ${outcome}\n\nReason: ${reason}\n\nIf you think this is wrong, reply to this mail.`,
    });
    for (const f of flaggers) {
      await enqueueMail(tx, {
        to: f.email,
        kind: 'review_flag_decision',
        subject: `The review of ${r.name} you flagged on ${r.site_name}`,
        text: `Thank you for flagging a review of ${r.name}. ${outcome}\n\nReason: ${reason}`,
      });
    }
    await tx`select directory_changed()`;
    return true;
  });
}
