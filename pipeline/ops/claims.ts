import { parseArgs } from 'node:util';
import { listDisputes } from '../../core/claims/disputes.ts';
import { EXIT, UsageError, type OpsIo } from './io.ts';

/** claims disputes [--limit N]: ownership changes their losers disputed, newest first. */
export async function claimsCommand(args: string[], io: OpsIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'disputes') throw new UsageError('claims takes a subcommand: claims disputes [--limit N]');
  const { values } = parseArgs({ args: rest, options: { limit: { type: 'string' } }, strict: true });
  const raw = values.limit ?? '20';
  if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > 500) throw new UsageError(`--limit must be a whole number from 1 to 500, got "${raw}"`);
  const rows = await listDisputes(io.sql, Number(raw));
  if (!rows.length) {
    io.out('no disputed ownership changes');
    return EXIT.ok;
  }
  for (const r of rows) {
    io.out(
      `#${r.id}  ${r.disputed_at}  [${r.site}] ${r.listing} (${r.slug})  ${r.kind} by ${r.claimant ?? '(deleted account)'} via ${r.method ?? '?'}, disputed by ${r.disputed_by ?? '(deleted account)'}`,
    );
    if (r.message) io.out(`    ${JSON.stringify(r.message)}`);
  }
  return EXIT.ok;
}
