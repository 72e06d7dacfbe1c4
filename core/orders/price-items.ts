// Checks every order item against the product catalogue, the site's current prices, the caller's
// listings and the launch calendar, and prices the order with its VAT. quote_order and
// create_checkout share it, so a checkout is exactly the quote it was made from.
import Ajv, { type ValidateFunction } from 'ajv';
import type { Sql } from '../../sql/db.ts';
import { bookableWeeks, currentProducts, WEEK_PRODUCTS, type ProductRow } from '../../sql/queries/products.ts';
import { DomainError, invalidFields, type FieldIssue } from '../errors/index.ts';
import { decideVat, isKnownCountry, vatOf, type VatDecision } from './vat.ts';
import { APPLIED_ONCE, appliedElsewhere, productAlreadyApplied } from './applied-once.ts';
import { listingExists, publicListingOfProduct } from '../listings/product-key.ts';
import { ownsListing } from '../listings/own-listing.ts';
import type { ViesCheck } from './vies.ts';

export interface OrderItemInput {
  product: string;
  listing_id?: number;
  week?: string;
  amount_cents?: number;
  categories?: string[];
  options?: Record<string, unknown>;
}
export interface OrderBody {
  items: OrderItemInput[];
  billing_country?: string;
  vat_number?: string;
}

export interface PricedLine {
  position: number;
  product: string;
  name: string;
  listing_id: number | null;
  week: string | null;
  categories: string[];
  options: Record<string, unknown> | null;
  amount_cents: number;
  vat_cents: number;
  total_cents: number;
}

export interface Quote {
  currency: string;
  lines: PricedLine[];
  subtotal_cents: number;
  vat_cents: number;
  total_cents: number;
  vat: VatDecision;
}

export interface OrderScope {
  sql: Sql;
  siteId: number;
  userId: string;
  sellerCountry: string;
  vies?: ViesCheck;
}

/** Products that put a listing into a launch week (at most one per listing and order). */
export const LAUNCHING = ['launch', 'launch_bundle', 'skip_queue', 'relaunch'];
/** Products whose week is required (launch's is optional: omitted means live at once). */
const WEEK_REQUIRED = ['skip_queue', 'relaunch'];
export const EXTRA_CATEGORIES_MAX = 3;

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<string, ValidateFunction>();
function optionsValidator(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let v = validators.get(key);
  if (!v) validators.set(key, (v = ajv.compile(schema)));
  return v;
}

const at = (i: number, field?: string) => `items.${i}${field ? `.${field}` : ''}`;

interface ListingRow {
  id: string;
  url: string;
  status: string;
  plan: string;
  launch_week: string | null;
  launched: boolean;
  primary_slug: string | null;
  extras: string[];
}

/** The caller's listings on this site among `ids` (owned or co-owned); another account's listing is simply absent. */
async function ownListings(scope: OrderScope, ids: number[]): Promise<Map<number, ListingRow>> {
  if (!ids.length) return new Map();
  const rows = await scope.sql<ListingRow[]>`
    select l.id::text, l.url, l.status, l.plan, to_char(l.launch_week, 'YYYY-MM-DD') as launch_week,
           (l.status = 'live' or l.launched_at is not null) as launched,
           pc.slug as primary_slug,
           coalesce(array(select c.slug from listing_categories lc join categories c on c.id = lc.category_id
                          where lc.listing_id = l.id and not lc.is_primary order by c.slug), '{}') as extras
    from listings l left join categories pc on pc.id = l.primary_category_id
    where l.id = any(${ids}::bigint[]) and l.site_id = ${scope.siteId} and ${ownsListing(scope.sql, scope.userId)}`;
  return new Map(rows.map((r) => [Number(r.id), r]));
}

/**
 * 409s for items that would do nothing: a launch kind the listing already has (pending, paid or in
 * effect: product_already_applied), or a launch of a product another public listing of this site
 * already shows (listing_exists).
 */
async function refuseWhatWouldDoNothing(
  scope: OrderScope,
  items: { item: OrderItemInput; product: ProductRow | undefined }[],
  listings: Map<number, ListingRow>,
): Promise<void> {
  for (const { item, product } of items) {
    const l = item.listing_id !== undefined ? listings.get(item.listing_id) : undefined;
    if (!l || !product || !APPLIED_ONCE.includes(product.code)) continue;
    const other = await appliedElsewhere(scope.sql, l.id, product.code, { pending: true });
    if (other) throw productAlreadyApplied(l.id, product.code, other);
    if ((product.code === 'launch' || product.code === 'launch_bundle') && l.plan === 'paid') throw productAlreadyApplied(l.id, product.code, null);
    if ((product.code === 'launch' || product.code === 'launch_bundle') && l.status === 'draft') {
      const existing = await publicListingOfProduct(scope.sql, scope.siteId, l.url, { except: Number(l.id), userId: scope.userId });
      if (existing) throw listingExists(existing);
    }
  }
}

/**
 * Validates and prices an order body. Throws a 400 naming every offending field (items.N.field),
 * or a 404 when a listing_id is unknown or another account's.
 */
export async function priceOrder(scope: OrderScope, body: OrderBody): Promise<Quote> {
  const { sql, siteId } = scope;
  const issues: FieldIssue[] = [];
  const contradictions: FieldIssue[] = [];
  const [products, weeks] = await Promise.all([currentProducts(sql, siteId), bookableWeeks(sql)]);
  const byCode = new Map<string, ProductRow>(products.map((p) => [p.code, p]));

  const country = body.billing_country ? body.billing_country.toUpperCase() : null;
  if (country && !isKnownCountry(country)) issues.push({ field: 'billing_country', message: 'is not a known ISO 3166-1 country code' });

  // Shape of each item against its product.
  const items = body.items.map((item, i) => ({ item, i, product: byCode.get(item.product) }));
  for (const { item, i, product: p } of items) {
    if (!p) {
      issues.push({ field: at(i, 'product'), message: `is not a product code from list_products (${products.map((x) => x.code).join(', ')})` });
      continue;
    }
    if (p.needs_listing && item.listing_id === undefined) issues.push({ field: at(i, 'listing_id'), message: `is required for ${p.code}` });
    if (!p.needs_listing && item.listing_id !== undefined) issues.push({ field: at(i, 'listing_id'), message: `is not accepted for ${p.code}` });
    const takesWeek = p.needs_week || WEEK_PRODUCTS.includes(p.code);
    if (!takesWeek && item.week !== undefined)
      issues.push({ field: at(i, 'week'), message: `is not accepted for ${p.code} (only ${WEEK_PRODUCTS.join(', ')} take a week)` });
    else if (takesWeek && item.week === undefined && (p.needs_week || WEEK_REQUIRED.includes(p.code)))
      issues.push({ field: at(i, 'week'), message: `is required for ${p.code}` });
    else if (takesWeek && item.week !== undefined && !weeks.includes(item.week)) {
      issues.push({ field: at(i, 'week'), message: `must be a Monday from the weeks list_products shows (${weeks[0]} to ${weeks[weeks.length - 1]})` });
    }
    if (p.code === 'billboard_min') {
      if (item.amount_cents === undefined) issues.push({ field: at(i, 'amount_cents'), message: 'is required for billboard_min' });
      else if (p.min_amount_cents !== null && item.amount_cents < p.min_amount_cents)
        issues.push({ field: at(i, 'amount_cents'), message: `must be at least ${p.min_amount_cents} (the minimum of billboard_min)` });
    } else if (item.amount_cents !== undefined) issues.push({ field: at(i, 'amount_cents'), message: 'is only accepted for billboard_min' });
    if (p.code === 'extra_categories') {
      const cats = item.categories ?? [];
      if (cats.length === 0) issues.push({ field: at(i, 'categories'), message: 'is required for extra_categories: 1 to 3 category slugs' });
      else if (cats.length > EXTRA_CATEGORIES_MAX)
        issues.push({ field: at(i, 'categories'), message: `must hold at most ${EXTRA_CATEGORIES_MAX} category slugs` });
      else if (new Set(cats).size !== cats.length) issues.push({ field: at(i, 'categories'), message: 'must not repeat a category' });
    } else if (item.categories !== undefined) issues.push({ field: at(i, 'categories'), message: 'is only accepted for extra_categories' });
    if (item.options !== undefined) {
      if (!p.options) issues.push({ field: at(i, 'options'), message: `is not accepted: ${p.code} takes no options` });
      else {
        const validate = optionsValidator(p.options);
        if (!validate(item.options)) {
          for (const e of validate.errors ?? []) {
            const extra = e.keyword === 'additionalProperties' ? `.${(e.params as { additionalProperty: string }).additionalProperty}` : '';
            const path = e.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
            issues.push({ field: at(i, `options${path ? `.${path}` : ''}${extra}`), message: extra ? 'is not a known field' : (e.message ?? 'is invalid') });
          }
        }
      }
    }
  }
  const currencies = new Set(items.flatMap(({ product }) => (product ? [product.price.currency] : [])));
  if (currencies.size > 1) issues.push({ field: 'items', message: `mixes currencies (${[...currencies].join(', ')}); one order has one currency` });
  if (issues.length) throw invalidFields(issues);

  // The listings: the caller's own, or the same 404 as an unknown one.
  const ids = [...new Set(items.flatMap(({ item }) => (item.listing_id !== undefined ? [item.listing_id] : [])))];
  const listings = await ownListings(scope, ids);
  const missing = ids.filter((id) => !listings.has(id));
  if (missing.length) throw new DomainError('not_found', `No listing ${missing.join(', ')} of yours on this site.`);

  // Per listing: one launch of any kind, and products that fit the listing's state.
  const launchItem = new Map<number, number>();
  const extrasWanted = new Map<number, { i: number; slugs: string[] }[]>();
  for (const { item, i, product: p } of items) {
    const code = p!.code;
    const l = item.listing_id !== undefined ? listings.get(item.listing_id)! : null;
    if (!l) continue;
    if (LAUNCHING.includes(code)) {
      const earlier = launchItem.get(item.listing_id!);
      if (earlier !== undefined) {
        contradictions.push({
          field: at(i, 'product'),
          message: `contradicts ${at(earlier)}: listing ${l.id} can get only one of ${LAUNCHING.join(', ')} per order (${items[earlier].item.product} and ${code})`,
        });
      } else launchItem.set(item.listing_id!, i);
    }
    if (code === 'launch' || code === 'launch_bundle') {
      // A paid launch that happened is product_already_applied (below); a free launched listing wants a relaunch.
      if (l.launched && l.plan !== 'paid')
        issues.push({ field: at(i, 'listing_id'), message: `listing ${l.id} has already launched (status ${l.status}); a second launch is a relaunch` });
    }
    if (code === 'skip_queue') {
      if (l.plan === 'paid')
        contradictions.push({
          field: at(i, 'listing_id'),
          message: `skip_queue is for free listings only; listing ${l.id} is on the paid plan and chose its week with its launch`,
        });
      else if (!['awaiting_badge', 'scheduled'].includes(l.status))
        issues.push({
          field: at(i, 'listing_id'),
          message: `skip_queue is only for a free listing waiting in the queue (status awaiting_badge or scheduled); listing ${l.id} is ${l.status}`,
        });
    }
    if (code === 'relaunch' && !l.launched)
      issues.push({ field: at(i, 'listing_id'), message: `relaunch is only for a listing that has launched; listing ${l.id} is ${l.status}` });
    if (code === 'extra_categories') {
      const list = extrasWanted.get(item.listing_id!) ?? [];
      list.push({ i, slugs: item.categories! });
      extrasWanted.set(item.listing_id!, list);
    }
  }
  // launch + skip_queue for one listing was reported above as two launches.

  // Extra categories: slugs that exist, not the primary, not already there, at most 3 in all.
  const allSlugs = [...new Set([...extrasWanted.values()].flatMap((l) => l.flatMap((x) => x.slugs)))];
  if (allSlugs.length) {
    const known = new Set((await sql<{ slug: string }[]>`select slug from categories where slug = any(${allSlugs}::text[])`).map((r) => r.slug));
    for (const [listingId, wanted] of extrasWanted) {
      const l = listings.get(listingId)!;
      const adding = new Set<string>();
      for (const { i, slugs } of wanted) {
        slugs.forEach((slug, k) => {
          const field = at(i, `categories.${k}`);
          if (!known.has(slug)) issues.push({ field, message: `is not a category slug from list_categories: ${slug}` });
          else if (slug === l.primary_slug) issues.push({ field, message: `is listing ${l.id}'s primary category` });
          else if (l.extras.includes(slug)) issues.push({ field, message: `is already one of listing ${l.id}'s categories` });
          else if (adding.has(slug)) contradictions.push({ field, message: `is asked for twice for listing ${l.id}` });
          else adding.add(slug);
        });
        if (l.extras.length + adding.size > EXTRA_CATEGORIES_MAX) {
          issues.push({
            field: at(i, 'categories'),
            message: `would give listing ${l.id} ${l.extras.length + adding.size} extra categories; at most ${EXTRA_CATEGORIES_MAX} (it has ${l.extras.length})`,
          });
        }
      }
    }
  }

  // Launch weeks: a free slot for every item that takes one (items of this order count too).
  const perWeek = new Map<string, number[]>();
  for (const { item, i } of items) if (item.week) perWeek.set(item.week, [...(perWeek.get(item.week) ?? []), i]);
  if (perWeek.size) {
    const rows = await sql<{ week: string; taken: number; slots: number }[]>`
      select w as week, s.launch_slots_per_week as slots,
             -- the order's own listings do not count: their slot moves with this order
             (select count(*)::int from listings l where l.site_id = ${siteId} and l.launch_week = w::date
                and l.status in ('scheduled', 'live', 'awaiting_badge') and l.id <> all(${ids}::bigint[])) as taken
      from unnest(${[...perWeek.keys()]}::text[]) w cross join sites s where s.id = ${siteId}`;
    for (const r of rows) {
      const wanting = perWeek.get(r.week)!;
      wanting.forEach((i, k) => {
        if (r.taken + k + 1 > r.slots)
          issues.push({
            field: at(i, 'week'),
            message: `week ${r.week} is full (${r.taken} of ${r.slots} launch slots taken); choose another week from list_products`,
          });
      });
    }
  }
  if (contradictions.length) throw invalidFields([...contradictions, ...issues], 'contradictory_order');
  if (issues.length) {
    const full = issues.every((x) => / is full \(/.test(x.message));
    throw invalidFields(issues, full ? 'launch_week_full' : 'invalid_input');
  }

  await refuseWhatWouldDoNothing(scope, items, listings);

  const vat = await decideVat(scope.sellerCountry, country, body.vat_number ?? null, scope.vies);
  const lines: PricedLine[] = items.map(({ item, i, product: p }) => {
    const amount = p!.code === 'billboard_min' ? item.amount_cents! : p!.price.amount_cents;
    const vatCents = vatOf(amount, vat.rate_basis_points);
    return {
      position: i,
      product: p!.code,
      name: p!.name,
      listing_id: item.listing_id ?? null,
      week: item.week ?? null,
      categories: item.categories ?? [],
      options: item.options ?? null,
      amount_cents: amount,
      vat_cents: vatCents,
      total_cents: amount + vatCents,
    };
  });
  const subtotal = lines.reduce((s, l) => s + l.amount_cents, 0);
  const vatTotal = lines.reduce((s, l) => s + l.vat_cents, 0);
  return { currency: [...currencies][0], lines, subtotal_cents: subtotal, vat_cents: vatTotal, total_cents: subtotal + vatTotal, vat };
}
