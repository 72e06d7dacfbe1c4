import { JOBS } from '../../core/jobs/index.ts';
import { refundLostRace } from '../../core/orders/refund.ts';
import { refundPayment, type StripeSettings } from '../../core/payments/stripe-provider.ts';
import { defineTask, type TaskDeps } from './task.ts';

/** refund_order {order_id}: refunds an order whose launch lost a race (core/orders/refund.ts). */
export const refundOrderTask = (deps: TaskDeps & { stripe: StripeSettings | null }) =>
  defineTask(JOBS.refund_order, async ({ order_id }, helpers) => {
    const r = await refundLostRace(deps.sql, order_id, async (row) => {
      if (row.provider !== 'stripe' || !row.provider_payment_id) return;
      if (!deps.stripe) throw new Error(`order ${row.number} was paid with Stripe and STRIPE_SECRET_KEY is not set; the refund waits for it`);
      await refundPayment(deps.stripe, row.provider_payment_id, row.number);
    });
    if (r) helpers.logger.info(`refund_order ${order_id}: order ${r.number} refunded`);
  });
