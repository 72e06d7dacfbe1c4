// Orders as stored and as list_my_orders / get_order show them.
import type { Sql } from '../../sql/db.ts';
import { DomainError } from '../errors/index.ts';
import type { PricedLine } from './price-items.ts';
import type { VatDecision } from './vat.ts';
import { documentLinks, type OrderDocumentLinks } from '../documents/read.ts';

/** A priced line as stored, with what its fulfilment did. */
export interface OrderLineView extends PricedLine {
  fulfilment: {
    status: 'pending' | 'fulfilled' | 'reversed' | 'cancelled';
    fulfilled_at: string | null;
    summary: string | null;
    details: Record<string, unknown> | null;
    reversal: Record<string, unknown> | null;
  };
}

export interface OrderView {
  number: string;
  status: string;
  currency: string;
  subtotal_cents: number;
  vat_cents: number;
  total_cents: number;
  vat: VatDecision;
  billing: { name: string | null; address: string | null; country: string | null; vat_number: string | null };
  provider: 'test' | 'stripe';
  checkout_url: string | null;
  test_mode: boolean;
  created_at: string;
  expires_at: string;
  paid_at: string | null;
  fulfilled_at: string | null;
  refunded_at: string | null;
  refund: Record<string, unknown> | null;
  lines: OrderLineView[];
  /** The invoice, once the order was paid and it was issued; credit notes after refunds. Readable by the buyer only. */
  invoice_url: string | null;
  credit_note_urls: string[];
}

export interface OrderRow {
  id: string;
  number: string;
  user_id: string;
  status: string;
  currency: string;
  subtotal_cents: number;
  vat_cents: number;
  total_cents: number;
  vat: VatDecision;
  billing_name: string | null;
  billing_address: string | null;
  billing_country: string | null;
  vat_number: string | null;
  provider: 'test' | 'stripe';
  provider_session_id: string | null;
  provider_session_url: string | null;
  provider_session_total_cents: number | null;
  provider_payment_id: string | null;
  expires_at: Date;
  paid_at: Date | null;
  fulfilled_at: Date | null;
  refunded_at: Date | null;
  refund: Record<string, unknown> | null;
  created_at: Date;
  expired: boolean;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
export const checkoutUrl = (siteUrl: string, number: string) => `${siteUrl}/checkout/${number}`;

/** The order row; `forUpdate` locks it for the caller's transaction. */
export async function orderRow(sql: Sql, where: { number?: string; id?: string }, opts: { forUpdate?: boolean } = {}): Promise<OrderRow | null> {
  const [row] = await sql<OrderRow[]>`
    select id::text, number, user_id::text, status, currency, subtotal_cents::int, vat_cents::int, total_cents::int, vat,
           billing_name, billing_address, billing_country, vat_number, provider, provider_session_id, provider_session_url,
           provider_session_total_cents::int, provider_payment_id, expires_at, paid_at, fulfilled_at, refunded_at, refund, created_at,
           (status = 'pending' and expires_at <= now()) as expired
    from orders
    where ${where.number !== undefined ? sql`number = ${where.number}` : sql`id = ${where.id!}`}
    ${opts.forUpdate ? sql`for update` : sql``}`;
  return row ?? null;
}

interface LineRow {
  order_id: string;
  position: number;
  product_code: string;
  name: string;
  listing_id: string | null;
  week: string | null;
  categories: string[];
  options: Record<string, unknown> | null;
  amount_cents: number;
  vat_cents: number;
  total_cents: number;
  fulfilment_status: OrderLineView['fulfilment']['status'];
  fulfilled_at: Date | null;
  fulfilment: Record<string, unknown> | null;
  reversal: Record<string, unknown> | null;
}

async function linesOf(sql: Sql, orderIds: string[]): Promise<Map<string, OrderLineView[]>> {
  const rows = orderIds.length
    ? await sql<LineRow[]>`
    select ol.order_id::text, ol.position, ol.product_code, p.name, ol.listing_id::text, to_char(ol.week, 'YYYY-MM-DD') as week, ol.categories,
           ol.options, ol.amount_cents::int, ol.vat_cents::int, ol.total_cents::int, ol.fulfilment_status, ol.fulfilled_at, ol.fulfilment, ol.reversal
    from order_lines ol join products p on p.code = ol.product_code
    where ol.order_id = any(${orderIds}::bigint[]) order by ol.order_id, ol.position`
    : [];
  const out = new Map<string, OrderLineView[]>();
  for (const r of rows) {
    const { summary, ...details } = (r.fulfilment ?? {}) as { summary?: string };
    const line: OrderLineView = {
      position: r.position,
      product: r.product_code,
      name: r.name,
      listing_id: r.listing_id === null ? null : Number(r.listing_id),
      week: r.week,
      categories: r.categories,
      options: r.options,
      amount_cents: r.amount_cents,
      vat_cents: r.vat_cents,
      total_cents: r.total_cents,
      fulfilment: {
        status: r.fulfilment_status,
        fulfilled_at: iso(r.fulfilled_at),
        summary: summary ?? null,
        details: r.fulfilment ? details : null,
        reversal: r.reversal,
      },
    };
    out.set(r.order_id, [...(out.get(r.order_id) ?? []), line]);
  }
  return out;
}

function view(row: OrderRow, lines: OrderLineView[], siteUrl: string, docs?: OrderDocumentLinks): OrderView {
  return {
    number: row.number,
    status: row.expired ? 'expired' : row.status,
    currency: row.currency,
    subtotal_cents: row.subtotal_cents,
    vat_cents: row.vat_cents,
    total_cents: row.total_cents,
    vat: row.vat,
    billing: { name: row.billing_name, address: row.billing_address, country: row.billing_country, vat_number: row.vat_number },
    provider: row.provider,
    test_mode: row.provider === 'test',
    checkout_url: row.status === 'pending' && !row.expired ? checkoutUrl(siteUrl, row.number) : null,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    paid_at: iso(row.paid_at),
    fulfilled_at: iso(row.fulfilled_at),
    refunded_at: iso(row.refunded_at),
    refund: row.refund,
    lines,
    invoice_url: docs?.invoice_url ?? null,
    credit_note_urls: docs?.credit_note_urls ?? [],
  };
}

/** Loads an order as get_order shows it (no owner check: callers check). */
export async function orderView(sql: Sql, row: OrderRow, siteUrl: string): Promise<OrderView> {
  const [lines, docs] = await Promise.all([linesOf(sql, [row.id]), documentLinks(sql, [row], siteUrl)]);
  return view(row, lines.get(row.id) ?? [], siteUrl, docs.get(row.id));
}

/** The caller's order on this site, or the same 404 as an unknown number. */
export async function ownOrder(sql: Sql, who: { userId: string; siteId: number }, number: string): Promise<OrderRow> {
  const row = await orderRow(sql, { number });
  const [mine] = row ? await sql`select 1 from orders where id = ${row.id} and user_id = ${who.userId} and site_id = ${who.siteId}` : [];
  if (!row || !mine) throw new DomainError('not_found', `No order ${number}.`);
  return row;
}

/** The caller's orders, newest first. */
export async function listOrders(sql: Sql, who: { userId: string; siteId: number }, page: number, perPage: number, siteUrl: string) {
  const [{ total }] = await sql<{ total: number }[]>`select count(*)::int as total from orders where user_id = ${who.userId} and site_id = ${who.siteId}`;
  const numbers = await sql<{ number: string }[]>`
    select number from orders where user_id = ${who.userId} and site_id = ${who.siteId}
    order by created_at desc, id desc limit ${perPage} offset ${(page - 1) * perPage}`;
  const rows = (await Promise.all(numbers.map((n) => orderRow(sql, { number: n.number })))) as OrderRow[];
  const [lines, docs] = await Promise.all([
    linesOf(
      sql,
      rows.map((r) => r.id),
    ),
    documentLinks(sql, rows, siteUrl),
  ]);
  return { items: rows.map((r) => view(r, lines.get(r.id) ?? [], siteUrl, docs.get(r.id))), total };
}
