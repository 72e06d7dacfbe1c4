import { parseArgs } from 'node:util';
import { moderationFeed } from '../../core/listings/versions.ts';
import { newListings } from '../../core/community/listing-holds.ts';
import { EXIT, isoTime, UsageError, type OpsIo } from './io.ts';
import { thisSite } from './site-settings.ts';

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v.length > 200 ? `${v.slice(0, 200)}...` : v) : JSON.stringify(v));

/** moderation [--site KEY] [--limit N]: owners' edits, newest first, each part before -> after. --new: newly submitted listings. */
export async function moderationCommand(args: string[], io: OpsIo): Promise<number> {
  const { values } = parseArgs({ args, options: { site: { type: 'string' }, limit: { type: 'string' }, new: { type: 'boolean' } }, strict: true });
  const raw = values.limit ?? '20';
  if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > 500) throw new UsageError(`--limit must be a whole number from 1 to 500, got "${raw}"`);
  if (values.new) {
    if (values.site !== undefined) throw new UsageError("--new lists this deployment's site; --site does not apply");
    const rows = await newListings(io.sql, (await thisSite(io.sql)).id, Number(raw));
    if (!rows.length) {
      io.out('no listings submitted yet');
      return EXIT.ok;
    }
    for (const r of rows)
      io.out(`${isoTime(r.created_at)}  ${r.slug}  ${r.status}${r.submitted ? ' (submitted)' : ''}  ${r.name} <${r.url}> by ${r.owner ?? '(no owner)'}`);
    return EXIT.ok;
  }
  if (values.site !== undefined && !/^[a-z0-9][a-z0-9-]{0,39}$/.test(values.site)) throw new UsageError(`--site must be a site key, got "${values.site}"`);
  const rows = await moderationFeed(io.sql, { siteKey: values.site, limit: Number(raw) });
  if (!rows.length) {
    io.out('no edits to review');
    return EXIT.ok;
  }
  for (const r of rows) {
    io.out(
      `#${r.id}  ${isoTime(r.created_at)}  [${r.site_key}] ${r.name} (${r.slug}, listing ${r.listing_id})  ${r.operation} by ${r.editor_email ?? '(deleted account)'} with ${r.credential}`,
    );
    for (const k of Object.keys(r.after)) io.out(`    ${k}: ${show(r.before[k])} -> ${show(r.after[k])}`);
    io.out('');
  }
  return EXIT.ok;
}
