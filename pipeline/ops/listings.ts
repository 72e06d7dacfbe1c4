import { parseArgs } from 'node:util';
import { hideListing, restoreListing } from '../../core/community/listing-holds.ts';
import { EXIT, UsageError, type OpsIo } from './io.ts';
import { reasonOf } from './reviews.ts';
import { thisSite } from './site-settings.ts';

const slugOf = (raw: string | undefined) => {
  if (!raw || !/^[a-z0-9][a-z0-9-]{0,199}$/.test(raw)) throw new UsageError('give the listing slug (lower-case letters, digits and dashes)');
  return raw;
};

/** listings hide <slug> --reason R | listings restore <slug> */
export async function listingsCommand(args: string[], io: OpsIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'hide' && sub !== 'restore') throw new UsageError(sub ? `unknown listings command "${sub}"` : 'listings needs a command: hide or restore');
  const { values, positionals } = parseArgs({
    args: rest,
    strict: true,
    allowPositionals: true,
    options: sub === 'hide' ? { reason: { type: 'string' } } : {},
  });
  if (positionals.length > 1) throw new UsageError(`unexpected "${positionals[1]}"`);
  const slug = slugOf(positionals[0]);
  const site = await thisSite(io.sql);
  const actor = io.actor ?? 'operator';
  const outcome =
    sub === 'hide'
      ? await hideListing(io.sql, site.id, slug, reasonOf((values as { reason?: string }).reason), actor)
      : await restoreListing(io.sql, site.id, slug, actor);
  if (outcome === 'not_found') {
    io.err(`ops: no listing ${slug} on this site`);
    return EXIT.failed;
  }
  if (outcome === 'already') {
    io.err(`ops: ${slug} is ${sub === 'hide' ? 'already hidden' : 'not hidden by the site team'}`);
    return EXIT.failed;
  }
  io.out(sub === 'hide' ? `${slug} hidden from every public surface; its owners were told why` : `${slug} restored to its former status`);
  return EXIT.ok;
}
