import { parseArgs } from 'node:util';
import { recordAudit } from '../../core/audit.ts';
import { transaction, type Sql } from '../../sql/db.ts';
import { EXIT, OpsFailure, UsageError, type OpsIo } from './io.ts';

interface SiteSettings {
  id: number;
  key: string;
  free_queue_min_weeks: number;
  free_queue_max_weeks: number;
  launch_slots_per_week: number;
  review_hide_flags: number;
  review_flagger_min_age_days: number;
  seller_name: string | null;
  seller_address: string | null;
  seller_vat_id: string | null;
}

export async function thisSite(sql: Sql): Promise<SiteSettings> {
  const [site] = await sql<SiteSettings[]>`
    select id, key, free_queue_min_weeks, free_queue_max_weeks, launch_slots_per_week, review_hide_flags, review_flagger_min_age_days,
           seller_name, seller_address, seller_vat_id
    from sites where is_self`;
  if (!site) throw new OpsFailure('this deployment has no site yet: start the service (or run npm run migrate) once first');
  return site;
}

export function wholeNumber(raw: string | undefined, flag: string, min: number, max: number): number {
  if (raw === undefined) throw new UsageError(`${flag} is required`);
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return n;
}

const describe = (s: SiteSettings) =>
  `site ${s.key}: free queue ${s.free_queue_min_weeks}-${s.free_queue_max_weeks} weeks out, ${s.launch_slots_per_week} launch slots a week, ` +
  `a review is hidden after ${s.review_hide_flags} flags from accounts older than ${s.review_flagger_min_age_days} days; ` +
  `seller on invoices: ${s.seller_name ?? '(not set: the site name)'}, ${s.seller_address?.replace(/\n/g, ', ') ?? '(no address)'}, VAT ID ${s.seller_vat_id ?? '(none)'}`;

/** A seller detail for invoices: trimmed, within its length; "\n" in the shell argument is a line break. */
function sellerText(raw: string | undefined, flag: string, max: number): string | null | undefined {
  if (raw === undefined) return undefined;
  const v = raw.replace(/\\n/g, '\n').trim();
  if (v.length > max) throw new UsageError(`${flag} has at most ${max} characters`);
  return v || null;
}

/** site set: the free launch queue's window, the weekly launch slots, and when flags hide a review. */
async function set(args: string[], io: OpsIo): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      'free-queue-min-weeks': { type: 'string' },
      'free-queue-max-weeks': { type: 'string' },
      'launch-slots-per-week': { type: 'string' },
      'review-hide-flags': { type: 'string' },
      'review-flagger-min-age-days': { type: 'string' },
      'seller-name': { type: 'string' },
      'seller-address': { type: 'string' },
      'seller-vat-id': { type: 'string' },
    },
  });
  const before = await thisSite(io.sql);
  const min =
    values['free-queue-min-weeks'] === undefined ? before.free_queue_min_weeks : wholeNumber(values['free-queue-min-weeks'], '--free-queue-min-weeks', 1, 52);
  const max =
    values['free-queue-max-weeks'] === undefined ? before.free_queue_max_weeks : wholeNumber(values['free-queue-max-weeks'], '--free-queue-max-weeks', 1, 52);
  const slots =
    values['launch-slots-per-week'] === undefined
      ? before.launch_slots_per_week
      : wholeNumber(values['launch-slots-per-week'], '--launch-slots-per-week', 1, 1000);
  const hideFlags =
    values['review-hide-flags'] === undefined ? before.review_hide_flags : wholeNumber(values['review-hide-flags'], '--review-hide-flags', 1, 100);
  const flaggerAge =
    values['review-flagger-min-age-days'] === undefined
      ? before.review_flagger_min_age_days
      : wholeNumber(values['review-flagger-min-age-days'], '--review-flagger-min-age-days', 0, 365);
  if (Object.values(values).every((v) => v === undefined))
    throw new UsageError(
      'site set needs at least one of --free-queue-min-weeks, --free-queue-max-weeks, --launch-slots-per-week, --review-hide-flags, --review-flagger-min-age-days, --seller-name, --seller-address, --seller-vat-id',
    );
  const sellerName = sellerText(values['seller-name'], '--seller-name', 200);
  const sellerAddress = sellerText(values['seller-address'], '--seller-address', 1000);
  const sellerVat = sellerText(values['seller-vat-id'], '--seller-vat-id', 32);
  if (min > max) throw new UsageError(`the free queue's minimum (${min}) must not be above its maximum (${max}) weeks`);
  const after = await transaction(io.sql, async (tx) => {
    const [row] = await tx<SiteSettings[]>`
      update sites set free_queue_min_weeks = ${min}, free_queue_max_weeks = ${max}, launch_slots_per_week = ${slots},
                       review_hide_flags = ${hideFlags}, review_flagger_min_age_days = ${flaggerAge},
        seller_name = ${sellerName === undefined ? before.seller_name : sellerName},
        seller_address = ${sellerAddress === undefined ? before.seller_address : sellerAddress},
        seller_vat_id = ${sellerVat === undefined ? before.seller_vat_id : (sellerVat?.toUpperCase().replace(/[\s.-]/g, '') ?? null)}
      where id = ${before.id}
      returning id, key, free_queue_min_weeks, free_queue_max_weeks, launch_slots_per_week, review_hide_flags, review_flagger_min_age_days,
                seller_name, seller_address, seller_vat_id`;
    await recordAudit(tx, { actor: io.actor ?? 'operator', action: 'site.set', target: `site:${before.key}`, before, after: row });
    await tx`select directory_changed()`;
    return row;
  });
  io.out(describe(after));
  return EXIT.ok;
}

export async function siteCommand(args: string[], io: OpsIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'set') return set(rest, io);
  if (sub === 'show') {
    parseArgs({ args: rest, strict: true, options: {} });
    io.out(describe(await thisSite(io.sql)));
    return EXIT.ok;
  }
  throw new UsageError(`site takes show or set, got ${sub ? `"${sub}"` : 'nothing'}`);
}
