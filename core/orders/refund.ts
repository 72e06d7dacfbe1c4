// Refunds (Stripe's charge.refunded, or `npm run ops -- order refund <number>`): the order becomes
// refunded and every line is reversed as far as it can be; what cannot be undone is said per line.
import { transaction, type Sql } from '../../sql/db.ts';
import { conflict, DomainError } from '../errors/index.ts';
import { JOBS } from '../jobs/catalogue.ts';
import { enqueue } from '../jobs/enqueue.ts';
import { reverseLaunch } from './fulfil-launch.ts';
import { BUNDLE_SECTIONS } from './fulfil.ts';
import { orderRow, type OrderRow } from './store.ts';

export interface RefundLine {
  position: number;
  product: string;
  reversed: boolean;
  note: string;
}
export interface RefundResult {
  number: string;
  already: boolean;
  lines: RefundLine[];
}

interface LineRow {
  id: string;
  position: number;
  product_code: string;
  listing_id: string | null;
  fulfilment_status: string;
  fulfilment: Record<string, unknown> | null;
}

async function endFeatured(tx: Sql, lineId: string) {
  await tx`delete from listing_featured where order_line_id = ${lineId} and starts_at >= now()`;
  await tx`update listing_featured set ends_at = now() where order_line_id = ${lineId} and starts_at < now() and ends_at > now()`;
}

async function reverseLine(tx: Sql, l: LineRow): Promise<{ reversed: boolean; note: string }> {
  const details = l.fulfilment ?? {};
  const listing = l.listing_id;
  if (!listing) return { reversed: false, note: 'The listing no longer exists.' };
  // A line fulfilment did not apply (it would have done nothing) has nothing to undo.
  if (details.applied === false) return { reversed: true, note: 'It was never applied; nothing to undo.' };
  switch (l.product_code) {
    case 'launch':
    case 'skip_queue':
    case 'relaunch':
      return reverseLaunch(tx, listing, l.product_code, details);
    case 'launch_bundle': {
      const parts = (details.parts ?? {}) as { launch?: Record<string, unknown> };
      const launch = await reverseLaunch(tx, listing, 'launch_bundle', parts.launch ?? {});
      await endFeatured(tx, l.id);
      await tx`update listings set unlocked_sections = array(select s from unnest(unlocked_sections) s where s <> all(${BUNDLE_SECTIONS}::text[])) where id = ${listing}`;
      return { reversed: launch.reversed, note: `${launch.note} Featured period ended; story, milestones and media locked again.` };
    }
    case 'featured':
      await endFeatured(tx, l.id);
      return { reversed: true, note: 'The featured period ended.' };
    case 'extra_categories': {
      const added = (details.added as string[] | undefined) ?? [];
      await tx`delete from listing_categories lc using categories c
               where lc.listing_id = ${listing} and lc.category_id = c.id and not lc.is_primary and c.slug = any(${added}::text[])`;
      return { reversed: true, note: `Categories removed: ${added.join(', ') || 'none'}.` };
    }
    case 'ai_review':
      await tx`update listing_ai_reviews set hidden = true where order_line_id = ${l.id}`;
      return { reversed: true, note: 'The AI review is no longer shown.' };
    case 'billboard_min':
      await tx`delete from billboard_contributions where order_line_id = ${l.id}`;
      return { reversed: true, note: 'The billboard contribution was removed.' };
    case 'done_for_you': {
      const [t] = await tx<{ status: string }[]>`select status from operator_tasks where order_line_id = ${l.id} for update`;
      if (t?.status === 'open') {
        await tx`update operator_tasks set status = 'cancelled', done_at = now(), done_note = 'order refunded' where order_line_id = ${l.id}`;
        return { reversed: true, note: 'The operator task was cancelled before it was done.' };
      }
      return { reversed: false, note: 'Cannot be undone: the site team has already listed the product on other launch sites.' };
    }
    default:
      return { reversed: false, note: 'Nothing to reverse.' };
  }
}

/**
 * Refunds an order found by number or by the provider's payment id. Idempotent: a refunded order is
 * left alone. A refund that arrives before its payment event (Stripe events can come out of order)
 * marks the pending order refunded, so the late payment event fulfils nothing.
 */
export async function refundOrder(sql: Sql, find: { number?: string; paymentId?: string }, source: string): Promise<RefundResult> {
  return transaction(sql, async (tx) => {
    let row: OrderRow | null = null;
    if (find.number) row = await orderRow(tx, { number: find.number }, { forUpdate: true });
    else if (find.paymentId) {
      const [r] = await tx<{ number: string }[]>`select number from orders where provider_payment_id = ${find.paymentId}`;
      row = r ? await orderRow(tx, { number: r.number }, { forUpdate: true }) : null;
    }
    if (!row) throw new DomainError('not_found', `No order ${find.number ?? `with payment ${find.paymentId}`}.`);
    if (row.status === 'refunded') return { number: row.number, already: true, lines: (row.refund?.lines ?? []) as RefundLine[] };
    if ((row.status === 'pending' || row.status === 'expired') && source === 'operator') {
      throw conflict('order_not_payable', `Order ${row.number} was never paid (status ${row.expired ? 'expired' : row.status}); there is nothing to refund.`);
    }
    const lines = await tx<LineRow[]>`
      select id::text, position, product_code, listing_id::text, fulfilment_status, fulfilment from order_lines where order_id = ${row.id} order by position for update`;
    const out: RefundLine[] = [];
    for (const l of lines) {
      if (l.fulfilment_status === 'pending') {
        await tx`update order_lines set fulfilment_status = 'cancelled', reversal = ${tx.json({ reversed: true, note: 'Refunded before fulfilment: nothing was done.' })} where id = ${l.id}`;
        out.push({ position: l.position, product: l.product_code, reversed: true, note: 'Refunded before fulfilment: nothing was done.' });
        continue;
      }
      if (l.fulfilment_status !== 'fulfilled') continue;
      const r = await reverseLine(tx, l);
      await tx`update order_lines set fulfilment_status = ${r.reversed ? 'reversed' : 'fulfilled'}, reversal = ${tx.json({ ...r, at: new Date().toISOString() })} where id = ${l.id}`;
      out.push({ position: l.position, product: l.product_code, ...r });
    }
    const refund = { source, lines: out };
    await tx`update orders set status = 'refunded', refunded_at = now(), paid_at = coalesce(paid_at, now()), refund = ${tx.json(refund as never)}, updated_at = now()
             where id = ${row.id}`;
    await tx`select directory_changed()`;
    await enqueue(tx, JOBS.refresh_views, {}, { key: 'refresh_views' });
    await enqueue(tx, JOBS.issue_order_documents, { order_id: Number(row.id) });
    return { number: row.number, already: false, lines: out };
  });
}

/** Pending orders whose checkout time is over become expired (the expire_orders job). */
export async function expireOrders(sql: Sql): Promise<number> {
  const rows = await sql`update orders set status = 'expired', updated_at = now() where status = 'pending' and expires_at <= now() returning 1`;
  return rows.length;
}

/**
 * The refund_order job: an order whose launch could not be applied (fulfilment said refund_due)
 * is refunded without an operator, the money first (Stripe's idempotency key makes a retry safe).
 */
export async function refundLostRace(sql: Sql, orderId: number, refundAtProvider: (row: OrderRow) => Promise<void>): Promise<RefundResult | null> {
  const row = await orderRow(sql, { id: String(orderId) });
  if (!row || row.status === 'refunded') return null;
  await refundAtProvider(row);
  return refundOrder(sql, { number: row.number }, 'automatic');
}
