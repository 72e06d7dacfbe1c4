import type Stripe from 'stripe';
import { DomainError } from '../errors/index.ts';
import type { PaymentProvider, PaymentSession, SessionRequest } from './provider.ts';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string | null;
  apiUrl: string | null;
}

/**
 * The Stripe client; apiUrl points it at another Stripe-compatible server (tests run one on loopback).
 * The package is loaded on first use (12 MB of a process's memory), so a deployment on the test
 * provider never loads it.
 */
export async function stripeClient(s: StripeSettings): Promise<Stripe> {
  const { default: Stripe } = await import('stripe');
  const u = s.apiUrl ? new URL(s.apiUrl) : null;
  return new Stripe(s.secretKey, {
    maxNetworkRetries: 1,
    timeout: 15_000,
    httpClient: Stripe.createFetchHttpClient(),
    ...(u ? { host: u.hostname, port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)), protocol: u.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });
}

const unavailable = (err: unknown) =>
  new DomainError(
    'payment_provider_unavailable',
    `The payment provider could not be reached (${err instanceof Error ? err.message.slice(0, 200) : 'unknown error'}); nothing was saved, try again shortly.`,
    { retryAfterSeconds: 30 },
  );

/** Stripe Checkout: a Checkout Session with our own line items and amounts (price_data). */
export function createStripeProvider(s: StripeSettings): PaymentProvider {
  let client: Promise<Stripe> | undefined;
  const stripe = () => (client ??= stripeClient(s));
  return {
    kind: 'stripe',
    async createSession(req: SessionRequest): Promise<PaymentSession> {
      try {
        const session = await (await stripe()).checkout.sessions.create({
          mode: 'payment',
          client_reference_id: req.orderNumber,
          customer_email: req.customerEmail,
          metadata: { order_number: req.orderNumber },
          payment_intent_data: { metadata: { order_number: req.orderNumber } },
          expires_at: Math.floor(req.expiresAt.getTime() / 1000),
          success_url: req.successUrl,
          cancel_url: req.cancelUrl,
          line_items: req.lines.map((l) => ({
            quantity: 1,
            price_data: { currency: req.currency.toLowerCase(), unit_amount: l.amount_cents, product_data: { name: l.name } },
          })),
        });
        if (!session.url) throw new Error('Stripe returned a session without a URL');
        return { id: session.id, url: session.url };
      } catch (err) {
        throw unavailable(err);
      }
    },
    async expireSession(id: string) {
      await (await stripe()).checkout.sessions.expire(id).catch(() => {});
    },
  };
}

/** Returns a Stripe payment to the buyer (the operator's order refund); idempotent per order. */
export async function refundPayment(s: StripeSettings, paymentIntentId: string, orderNumber: string): Promise<string> {
  try {
    const refund = await (await stripeClient(s)).refunds.create(
      { payment_intent: paymentIntentId, metadata: { order_number: orderNumber } },
      { idempotencyKey: `refund:${orderNumber}` },
    );
    return refund.id;
  } catch (err) {
    throw unavailable(err);
  }
}
