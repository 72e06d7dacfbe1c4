// create_checkout and the checkout page's actions: save a priced order, start (or restart) the
// provider's payment session, change billing details (re-pricing the VAT).
import { transaction, type Sql } from '../../sql/db.ts';
import { conflict, DomainError } from '../errors/index.ts';
import type { PaymentProvider } from '../payments/index.ts';
import { newOrderNumber } from './numbers.ts';
import { priceOrder, type OrderBody, type OrderScope, type Quote } from './price-items.ts';
import { checkoutUrl, orderRow, orderView, type OrderRow, type OrderView } from './store.ts';
import { decideVat, vatOf } from './vat.ts';
import { APPLIED_ONCE, appliedElsewhere, productAlreadyApplied } from './applied-once.ts';
import { listingExists, publicListingOfProduct } from '../listings/product-key.ts';
import type { ViesCheck } from './vies.ts';

export interface CheckoutScope extends OrderScope {
  email: string;
  siteUrl: string;
  provider: PaymentProvider;
  ttlMinutes: number;
}

const linesForProvider = async (sql: Sql, row: OrderRow) => {
  const lines = await sql<{ name: string; amount_cents: number; week: string | null; listing_id: string | null }[]>`
    select p.name, ol.amount_cents::int, to_char(ol.week, 'YYYY-MM-DD') as week, ol.listing_id::text
    from order_lines ol join products p on p.code = ol.product_code where ol.order_id = ${row.id} order by ol.position`;
  const out = lines.map((l) => ({
    name: `${l.name}${l.listing_id ? ` (listing ${l.listing_id})` : ''}${l.week ? `, week of ${l.week}` : ''}`,
    amount_cents: l.amount_cents,
  }));
  if (row.vat_cents > 0) out.push({ name: `VAT ${row.vat.rate_percent}% (${row.vat.country})`, amount_cents: row.vat_cents });
  return out;
};

/** Starts a provider session for the order as it now stands and stores it on the row (inside `tx`). */
async function startSession(tx: Sql, scope: { provider: PaymentProvider; siteUrl: string; email: string }, row: OrderRow) {
  const session = await scope.provider.createSession({
    orderNumber: row.number,
    currency: row.currency,
    lines: await linesForProvider(tx, row),
    totalCents: row.total_cents,
    customerEmail: scope.email,
    expiresAt: row.expires_at,
    successUrl: `${checkoutUrl(scope.siteUrl, row.number)}?paid=1`,
    cancelUrl: checkoutUrl(scope.siteUrl, row.number),
  });
  await tx`update orders set provider_session_id = ${session.id}, provider_session_url = ${session.url},
                             provider_session_total_cents = ${row.total_cents}, updated_at = now() where id = ${row.id}`;
  return session;
}

/**
 * Saves the order (pending) with its lines priced as quote_order would, and starts the provider's
 * session in the same transaction: when the provider cannot be reached nothing is saved (503).
 */
export async function createCheckout(scope: CheckoutScope, body: OrderBody): Promise<OrderView> {
  const quote: Quote = await priceOrder(scope, body);
  const number = await transaction(scope.sql, async (tx) => {
    const num = newOrderNumber();
    const [o] = await tx<{ id: string }[]>`
      insert into orders (number, site_id, user_id, currency, subtotal_cents, vat_cents, total_cents, vat, billing_country, vat_number, provider, expires_at)
      values (${num}, ${scope.siteId}, ${scope.userId}, ${quote.currency}, ${quote.subtotal_cents}, ${quote.vat_cents}, ${quote.total_cents},
              ${tx.json(quote.vat as never)}, ${quote.vat.country}, ${quote.vat.vat_number}, ${scope.provider.kind},
              now() + make_interval(mins => ${scope.ttlMinutes}))
      returning id::text`;
    for (const l of quote.lines) {
      await tx`insert into order_lines (order_id, position, product_code, listing_id, week, categories, options, amount_cents, vat_cents, total_cents)
               values (${o.id}, ${l.position}, ${l.product}, ${l.listing_id}, ${l.week}::date, ${l.categories}::text[],
                       ${l.options ? tx.json(l.options as never) : null}, ${l.amount_cents}, ${l.vat_cents}, ${l.total_cents})`;
    }
    await startSession(tx, scope, (await orderRow(tx, { id: o.id }))!);
    return num;
  });
  return orderView(scope.sql, (await orderRow(scope.sql, { number }))!, scope.siteUrl);
}

/**
 * At the pay step, before money moves: no line may have become pointless since the quote (another
 * order of the same kind for the listing was paid, or another listing of the product went public).
 * Two pending orders may exist; the first one paid wins.
 */
export async function assertStillUseful(tx: Sql, row: OrderRow): Promise<void> {
  const lines = await tx<{ product_code: string; listing_id: string; url: string; status: string; site_id: number }[]>`
    select ol.product_code, ol.listing_id::text, l.url, l.status, l.site_id from order_lines ol join listings l on l.id = ol.listing_id
    where ol.order_id = ${row.id} and ol.product_code = any(${APPLIED_ONCE}::text[]) order by ol.position`;
  for (const l of lines) {
    const other = await appliedElsewhere(tx, l.listing_id, l.product_code, { exceptOrderId: row.id, pending: false });
    if (other) throw productAlreadyApplied(l.listing_id, l.product_code, other);
    if ((l.product_code === 'launch' || l.product_code === 'launch_bundle') && l.status === 'draft') {
      const existing = await publicListingOfProduct(tx, l.site_id, l.url, { except: Number(l.listing_id) });
      if (existing) throw listingExists(existing);
    }
  }
}

/** Refuses anything but a pending, unexpired order. */
export function assertPayable(row: OrderRow) {
  if (row.status !== 'pending' || row.expired) {
    throw conflict('order_not_payable', `Order ${row.number} is ${row.expired ? 'expired' : row.status}; it can no longer be paid.`);
  }
}

export interface BillingInput {
  name: string;
  address: string;
  country: string;
  vatNumber: string | null;
}

/** Stores billing details and re-prices the VAT of every line for them (the checkout page's form). */
export async function updateBilling(sql: Sql, sellerCountry: string, number: string, billing: BillingInput, vies?: ViesCheck): Promise<void> {
  const vat = await decideVat(sellerCountry, billing.country, billing.vatNumber, vies);
  await transaction(sql, async (tx) => {
    const row = await orderRow(tx, { number }, { forUpdate: true });
    if (!row) throw new DomainError('not_found', `No order ${number}.`);
    assertPayable(row);
    const lines = await tx<{ id: string; amount_cents: number }[]>`select id::text, amount_cents::int from order_lines where order_id = ${row.id}`;
    let vatTotal = 0;
    for (const l of lines) {
      const v = vatOf(l.amount_cents, vat.rate_basis_points);
      vatTotal += v;
      await tx`update order_lines set vat_cents = ${v}, total_cents = ${l.amount_cents + v} where id = ${l.id}`;
    }
    await tx`update orders set billing_name = ${billing.name}, billing_address = ${billing.address}, billing_country = ${billing.country},
                               vat_number = ${vat.vat_number}, vat = ${tx.json(vat as never)}, vat_cents = ${vatTotal},
                               total_cents = subtotal_cents + ${vatTotal}, updated_at = now() where id = ${row.id}`;
  });
}

/**
 * The pay button: the provider session for the order as it stands (a new one when billing details
 * changed the total since the last), and where to send the buyer.
 */
export async function paymentRedirect(sql: Sql, scope: { provider: PaymentProvider; siteUrl: string; email: string }, number: string): Promise<string> {
  return transaction(sql, async (tx) => {
    const row = await orderRow(tx, { number }, { forUpdate: true });
    if (!row) throw new DomainError('not_found', `No order ${number}.`);
    assertPayable(row);
    await assertStillUseful(tx, row);
    if (row.provider_session_url && row.provider_session_total_cents === row.total_cents) return row.provider_session_url;
    if (row.provider_session_id) await scope.provider.expireSession(row.provider_session_id);
    return (await startSession(tx, scope, row)).url;
  });
}
