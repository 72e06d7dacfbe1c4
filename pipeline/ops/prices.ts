import { parseArgs } from 'node:util';
import { recordAudit } from '../../core/audit.ts';
import { transaction } from '../../sql/db.ts';
import { EXIT, isoTime, OpsFailure, UsageError, type OpsIo } from './io.ts';
import { thisSite, wholeNumber } from './site-settings.ts';

interface PriceRow {
  id: number;
  product_code: string;
  amount_cents: number;
  currency: string;
  min_amount_cents: number | null;
  valid_from: Date;
}

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;

/** A start date: today when omitted; YYYY-MM-DD is midnight UTC; a full ISO time is taken as it is. */
function validFrom(raw: string | undefined): Date {
  if (!raw) return new Date();
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T00:00:00Z` : raw);
  if (Number.isNaN(d.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(raw)) throw new UsageError(`--from must be a date YYYY-MM-DD (or an ISO time), got "${raw}"`);
  return d;
}

/**
 * price set: a new price row valid from a date (prices are never edited in place, so what an
 * order was quoted stays explainable). list_products shows it once it is valid.
 */
async function set(args: string[], io: OpsIo): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: { product: { type: 'string' }, amount: { type: 'string' }, min: { type: 'string' }, currency: { type: 'string' }, from: { type: 'string' } },
  });
  if (!values.product) throw new UsageError('--product is required (a product code from `price list`)');
  const amount = wholeNumber(values.amount, '--amount', 0, 100_000_000);
  const min = values.min === undefined ? null : wholeNumber(values.min, '--min', 1, 100_000_000);
  const currency = (values.currency ?? 'USD').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new UsageError(`--currency must be a three-letter ISO code, got "${values.currency}"`);
  const from = validFrom(values.from);
  const site = await thisSite(io.sql);
  const row = await transaction(io.sql, async (tx) => {
    const [product] = await tx`select code from products where code = ${values.product!}`;
    if (!product) throw new OpsFailure(`no product "${values.product}" (see \`price list\`)`);
    const [before] = await tx<PriceRow[]>`
      select id::int, product_code, amount_cents::int, currency, min_amount_cents::int, valid_from from product_prices
      where site_id = ${site.id} and product_code = ${values.product!} and valid_from <= now() order by valid_from desc, id desc limit 1`;
    const [inserted] = await tx<PriceRow[]>`
      insert into product_prices (site_id, product_code, amount_cents, currency, min_amount_cents, valid_from)
      values (${site.id}, ${values.product!}, ${amount}, ${currency}, ${min}, ${from})
      returning id::int, product_code, amount_cents::int, currency, min_amount_cents::int, valid_from`;
    await recordAudit(tx, { actor: io.actor ?? 'operator', action: 'price.set', target: `product:${values.product}`, before: before ?? null, after: inserted });
    await tx`select directory_changed()`;
    return inserted;
  });
  io.out(
    `price ${row.id}: ${row.product_code} ${money(row.amount_cents, row.currency)}${row.min_amount_cents ? ` (minimum ${money(row.min_amount_cents, row.currency)})` : ''} valid from ${isoTime(row.valid_from)}`,
  );
  return EXIT.ok;
}

/** price list: each product's current price and any scheduled one. */
async function list(args: string[], io: OpsIo): Promise<number> {
  parseArgs({ args, strict: true, options: {} });
  const site = await thisSite(io.sql);
  const rows = await io.sql<(PriceRow & { active: boolean; current: boolean })[]>`
    select p.code as product_code, p.active, pp.id::int, pp.amount_cents::int, pp.currency, pp.min_amount_cents::int, pp.valid_from,
           pp.valid_from <= now() and not exists (
             select 1 from product_prices later where later.site_id = pp.site_id and later.product_code = pp.product_code
               and later.valid_from <= now() and (later.valid_from, later.id) > (pp.valid_from, pp.id)) as current
    from products p
    left join product_prices pp on pp.product_code = p.code and pp.site_id = ${site.id}
    order by p.position, p.code, pp.valid_from desc, pp.id desc`;
  for (const r of rows) {
    if (r.id === null) {
      io.out(`${r.product_code}\tno price`);
      continue;
    }
    const when = r.current ? 'current' : r.valid_from > new Date() ? `from ${isoTime(r.valid_from)}` : null;
    if (when)
      io.out(
        `${r.product_code}\t${money(r.amount_cents, r.currency)}${r.min_amount_cents ? ` min ${money(r.min_amount_cents, r.currency)}` : ''}\t${when}${r.active ? '' : '\t(inactive)'}`,
      );
  }
  return EXIT.ok;
}

export async function priceCommand(args: string[], io: OpsIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'set') return set(rest, io);
  if (sub === 'list') return list(rest, io);
  throw new UsageError(`price takes set or list, got ${sub ? `"${sub}"` : 'nothing'}`);
}
