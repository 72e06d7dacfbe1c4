import { parseArgs } from 'node:util';
import { decideReview, flaggedReviews } from '../../core/community/review-moderation.ts';
import { EXIT, UsageError, type OpsIo } from './io.ts';

const reviewId = (raw: string | undefined) => {
  if (!raw || !/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new UsageError('give the review id, a positive integer (see reviews flagged)');
  return Number(raw);
};

/** A reason given with --reason: told to the people a decision affects. */
export function reasonOf(raw: string | undefined): string {
  const reason = raw?.trim() ?? '';
  if (!reason) throw new UsageError('--reason is required: it is told to the people the decision affects');
  if (reason.length > 500) throw new UsageError('--reason must be at most 500 characters');
  return reason;
}

/** reviews flagged | reviews keep <id> --reason R | reviews remove <id> --reason R */
export async function reviewsCommand(args: string[], io: OpsIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'flagged') {
    parseArgs({ args: rest, strict: true, options: {} });
    const rows = await flaggedReviews(io.sql);
    if (!rows.length) {
      io.out('No flagged reviews.');
      return EXIT.ok;
    }
    for (const r of rows) {
      const text = (r.body ?? '').replace(/\s+/g, ' ').slice(0, 200);
      io.out(
        `review ${r.id} on ${r.slug} by ${r.email}: ${r.rating}/5, ${r.flags} ${r.flags === 1 ? 'flag' : 'flags'}${r.hidden ? ' (hidden)' : ''}${text ? ` - ${JSON.stringify(text)}` : ''}`,
      );
      io.out(`    flagged by ${r.flaggers.join(', ')}`);
    }
    return EXIT.ok;
  }
  if (sub === 'keep' || sub === 'remove') {
    const { values, positionals } = parseArgs({ args: rest, strict: true, allowPositionals: true, options: { reason: { type: 'string' } } });
    if (positionals.length > 1) throw new UsageError(`unexpected "${positionals[1]}"`);
    const n = reviewId(positionals[0]);
    const reason = reasonOf(values.reason);
    if (!(await decideReview(io.sql, n, sub, reason, io.actor ?? 'operator'))) {
      io.err(`ops: no review ${n}`);
      return EXIT.failed;
    }
    io.out(sub === 'keep' ? `review ${n} kept: it is shown and counts` : `review ${n} removed: hidden, kept on record`);
    return EXIT.ok;
  }
  throw new UsageError(sub ? `unknown reviews command "${sub}"` : 'reviews needs a command: flagged, keep or remove');
}
