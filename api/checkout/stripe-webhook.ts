// POST /webhooks/stripe: Stripe's events about our Checkout Sessions. The signature is verified with
// Stripe's own helper (constructEventAsync; unsigned, forged or stale events older than 5 minutes
// are refused with 400), and every event is applied once by its id (payment_events), so replays,
// duplicates and events out of order change nothing twice. Never a 500: an unexpected failure is a
// 503 so that Stripe retries later.
import type Stripe from 'stripe';
import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { DomainError } from '../../core/errors/index.ts';
import { recordPayment } from '../../core/orders/payments.ts';
import { refundOrder } from '../../core/orders/refund.ts';
import { stripeClient } from '../../core/payments/stripe-provider.ts';
import { transaction } from '../../sql/db.ts';
import { readCappedText } from '../http/body.ts';

/** Stripe's default tolerance: a signed timestamp older than this is a replay. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
const MAX_EVENT_BYTES = 256 * 1024;

const answer = (status: number, body: Record<string, unknown>) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });

export function stripeWebhookPlugin(deps: AppDeps) {
  // Routes are added one by one below; the instance is this area's plugin.
  const app = new Elysia({ name: 'stripe-webhook' });
  const settings = deps.config.orders.stripe;
  app.post(
    '/webhooks/stripe',
    async ({ request }: { request: Request }) => {
      if (!settings?.webhookSecret) return answer(404, { error: 'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET).' });
      const stripe = await stripeClient(settings);
      const signature = request.headers.get('stripe-signature');
      if (!signature) return answer(400, { error: 'missing Stripe-Signature' });
      const payload = await readCappedText(request, MAX_EVENT_BYTES);
      if (payload === null) return answer(413, { error: 'event too large' });
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(payload, signature, settings.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch (e) {
        return answer(400, { error: `signature verification failed: ${e instanceof Error ? e.message.slice(0, 200) : 'invalid'}` });
      }
      try {
        const outcome = await handle(deps, event);
        return answer(200, { received: true, outcome });
      } catch (e) {
        deps.log.error({ err: e, event: event.id, type: event.type }, 'stripe webhook failed');
        return answer(503, { error: 'temporarily unable to process the event; retry later' });
      }
    },
    { parse: 'none' } as never,
  );
  return app;
}

async function handle(deps: AppDeps, event: Stripe.Event): Promise<string> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const s = event.data.object as Stripe.Checkout.Session;
      // A completed session paying later (bank transfers) reports async_payment_succeeded instead.
      if (event.type === 'checkout.session.completed' && s.payment_status !== 'paid') return once(deps, event, 'awaiting_async_payment');
      return recordPayment(deps.sql, {
        provider: 'stripe',
        eventId: event.id,
        type: event.type,
        orderNumber: s.client_reference_id ?? s.metadata?.order_number ?? null,
        amountCents: s.amount_total ?? null,
        currency: s.currency ? s.currency.toUpperCase() : null,
        paymentId: typeof s.payment_intent === 'string' ? s.payment_intent : (s.payment_intent?.id ?? null),
      });
    }
    case 'charge.refunded': {
      // refundOrder is idempotent itself (a refunded order is left alone), so it runs before the
      // event is recorded: a failure part way leaves nothing recorded and Stripe's retry redoes it.
      const c = event.data.object as Stripe.Charge;
      const paymentId = typeof c.payment_intent === 'string' ? c.payment_intent : c.payment_intent?.id;
      const number = c.metadata?.order_number;
      try {
        const r = await refundOrder(deps.sql, number ? { number } : { paymentId: paymentId ?? '' }, 'stripe');
        const seen = await once(deps, event, r.already ? 'already_refunded' : 'refunded');
        return seen === 'duplicate_event' ? seen : r.already ? 'already_refunded' : 'refunded';
      } catch (e) {
        // Not paid yet as far as we know (events come out of order): the refund waits for its payment.
        if (e instanceof DomainError && e.kind === 'not_found') return once(deps, event, paymentId ? 'refund_waiting' : 'unknown_order', paymentId ?? null);
        throw e;
      }
    }
    default:
      return once(deps, event, 'ignored');
  }
}

/** Records an event that needs no payment step; 'duplicate_event' when it was seen before. */
async function once(deps: AppDeps, event: Stripe.Event, outcome: string, paymentId: string | null = null): Promise<string> {
  return transaction(deps.sql, async (tx) => {
    const rows =
      await tx`insert into payment_events (provider, event_id, type, payment_id, outcome) values ('stripe', ${event.id}, ${event.type.slice(0, 100)}, ${paymentId}, ${outcome})
                          on conflict (provider, event_id) do nothing returning 1`;
    return rows.length ? outcome : 'duplicate_event';
  });
}
