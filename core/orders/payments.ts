// The one path money takes into the system: Stripe's webhook and the test provider's Pay button
// both call recordPaymentEvent. Each provider event is stored once (unique provider + event id),
// so replays, duplicates and concurrent copies change nothing twice; the order is locked, its
// amount and currency checked, marked paid, and its fulfilment job enqueued in that transaction.
import { transaction, type Sql } from '../../sql/db.ts';
import { JOBS } from '../jobs/catalogue.ts';
import { enqueue } from '../jobs/enqueue.ts';
import { orderRow } from './store.ts';

export interface PaymentEvent {
  provider: 'test' | 'stripe';
  eventId: string;
  type: string;
  orderNumber: string | null;
  amountCents: number | null;
  currency: string | null;
  /** The provider's payment id (Stripe: the PaymentIntent), to find the order again on refunds. */
  paymentId?: string | null;
}

export type PaymentOutcome = 'applied' | 'duplicate_event' | 'already_paid' | 'amount_mismatch' | 'unknown_order' | 'refunded_order';

/** Records a successful payment and, the first time only, marks the order paid and enqueues its fulfilment. */
export async function recordPayment(sql: Sql, ev: PaymentEvent): Promise<PaymentOutcome> {
  return transaction(sql, async (tx) => {
    // The event row first: a concurrent copy waits here on the unique index, then finds it taken.
    const [inserted] = await tx<{ id: string }[]>`
      insert into payment_events (provider, event_id, type, amount_cents, currency, payment_id, outcome)
      values (${ev.provider}, ${ev.eventId}, ${ev.type}, ${ev.amountCents}, ${ev.currency}, ${ev.paymentId ?? null}, 'received')
      on conflict (provider, event_id) do nothing returning id::text`;
    if (!inserted) return 'duplicate_event';
    const outcome = await apply(tx, ev);
    await tx`update payment_events set outcome = ${outcome.outcome}, order_id = ${outcome.orderId} where id = ${inserted.id}`;
    return outcome.outcome;
  });
}

async function apply(tx: Sql, ev: PaymentEvent): Promise<{ outcome: PaymentOutcome; orderId: string | null }> {
  const row = ev.orderNumber ? await orderRow(tx, { number: ev.orderNumber }, { forUpdate: true }) : null;
  if (!row || row.provider !== ev.provider) return { outcome: 'unknown_order', orderId: row?.id ?? null };
  if (row.status === 'refunded') return { outcome: 'refunded_order', orderId: row.id };
  if (row.status === 'paid' || row.status === 'fulfilled') return { outcome: 'already_paid', orderId: row.id };
  // Events can arrive out of order: a refund of this payment that came first wins, nothing is fulfilled.
  if (ev.paymentId) {
    const [waiting] =
      await tx`select 1 from payment_events where provider = ${ev.provider} and payment_id = ${ev.paymentId} and outcome = 'refund_waiting' limit 1`;
    if (waiting) {
      await tx`update order_lines set fulfilment_status = 'cancelled', reversal = ${tx.json({ reversed: true, note: 'Refunded before the payment was recorded: nothing was done.' })}
               where order_id = ${row.id} and fulfilment_status = 'pending'`;
      await tx`update orders set status = 'refunded', paid_at = now(), refunded_at = now(), provider_payment_id = ${ev.paymentId}, updated_at = now(),
                                 refund = ${tx.json({ source: ev.provider, note: 'The refund event arrived before the payment event; nothing was fulfilled.' })}
               where id = ${row.id}`;
      await tx`update payment_events set outcome = 'refund_applied', order_id = ${row.id} where provider = ${ev.provider} and payment_id = ${ev.paymentId} and outcome = 'refund_waiting'`;
      await enqueue(tx, JOBS.issue_order_documents, { order_id: Number(row.id) });
      return { outcome: 'refunded_order', orderId: row.id };
    }
  }
  if (ev.amountCents !== row.total_cents || (ev.currency ?? '').toUpperCase() !== row.currency) return { outcome: 'amount_mismatch', orderId: row.id };
  // A payment completed for an order whose checkout had just expired is still taken: the buyer paid.
  await tx`update orders set status = 'paid', paid_at = now(), provider_payment_id = coalesce(${ev.paymentId ?? null}, provider_payment_id), updated_at = now()
           where id = ${row.id}`;
  await enqueue(tx, JOBS.fulfil_order, { order_id: Number(row.id) });
  await enqueue(tx, JOBS.issue_order_documents, { order_id: Number(row.id) });
  return { outcome: 'applied', orderId: row.id };
}
