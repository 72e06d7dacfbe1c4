import { clearReview, flaggedReviews, removeReview } from '../../core/community/actions.ts';
import { recordAudit } from '../../core/audit.ts';
import type { Sql } from '../../sql/db.ts';
import { EXIT, UsageError, type OpsIo } from './io.ts';

const reviewState = async (sql: Sql, id: number) =>
  (
    await sql`
    select r.id::int, r.listing_id::int, r.rating, r.body, r.flagged, (select count(*)::int from review_flags f where f.review_id = r.id) as flags
    from reviews r where r.id = ${id}`
  )[0] ?? null;

const reviewId = (raw: string | undefined) => {
  if (!raw || !/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new UsageError('give the review id, a positive integer (see reviews flagged)');
  return Number(raw);
};

/** reviews flagged | reviews clear <id> | reviews remove <id> */
export async function reviewsCommand(args: string[], io: OpsIo): Promise<number> {
  const [sub, id, ...extra] = args;
  if (extra.length) throw new UsageError(`unexpected "${extra[0]}"`);
  if (sub === 'flagged') {
    if (id !== undefined) throw new UsageError(`unexpected "${id}"`);
    const rows = await flaggedReviews(io.sql);
    if (!rows.length) {
      io.out('No flagged reviews.');
      return EXIT.ok;
    }
    for (const r of rows) {
      const text = (r.body ?? '').replace(/\s+/g, ' ').slice(0, 200);
      io.out(
        `review ${r.id} on ${r.slug} by ${r.email}: ${r.rating}/5, ${r.flags} ${r.flags === 1 ? 'flag' : 'flags'}${text ? ` - ${JSON.stringify(text)}` : ''}`,
      );
    }
    return EXIT.ok;
  }
  if (sub === 'clear' || sub === 'remove') {
    const n = reviewId(id);
    const before = await reviewState(io.sql, n);
    const done = sub === 'clear' ? await clearReview(io.sql, n) : await removeReview(io.sql, n);
    if (!done) {
      io.err(`ops: no review ${n}`);
      return EXIT.failed;
    }
    await recordAudit(io.sql, { actor: io.actor ?? 'operator', action: `review.${sub}`, target: `review:${n}`, before, after: await reviewState(io.sql, n) });
    io.out(sub === 'clear' ? `review ${n} cleared: it counts again` : `review ${n} removed`);
    return EXIT.ok;
  }
  throw new UsageError(sub ? `unknown reviews command "${sub}"` : 'reviews needs a command: flagged, clear or remove');
}
