import type { Config } from '../config.ts';
import type { PaymentProvider } from './provider.ts';
import { createStripeProvider } from './stripe-provider.ts';
import { createTestProvider } from './test-provider.ts';

export type { PaymentProvider, PaymentSession, SessionRequest, CheckoutLine } from './provider.ts';

const made = new WeakMap<Config, PaymentProvider>();

/** The configured provider (one per configuration): Stripe when STRIPE_SECRET_KEY is set, else the test provider. */
export function paymentProvider(config: Config): PaymentProvider {
  let p = made.get(config);
  if (!p) made.set(config, (p = config.orders.stripe ? createStripeProvider(config.orders.stripe) : createTestProvider(config.siteUrl)));
  return p;
}
