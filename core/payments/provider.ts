// Payments: one interface, two implementations chosen by configuration (Stripe when
// STRIPE_SECRET_KEY is set, the built-in test provider otherwise). A provider only starts a
// payment; money arriving is always reported through recordPaymentEvent (core/orders/payments.ts).

export interface CheckoutLine {
  name: string;
  amount_cents: number;
}

export interface SessionRequest {
  orderNumber: string;
  currency: string;
  /** What the buyer pays, one entry per order line plus one for VAT when there is VAT. */
  lines: CheckoutLine[];
  totalCents: number;
  customerEmail: string;
  expiresAt: Date;
  /** Where the provider sends the buyer back to. */
  successUrl: string;
  cancelUrl: string;
}

export interface PaymentSession {
  id: string;
  url: string;
}

export interface PaymentProvider {
  readonly kind: 'test' | 'stripe';
  /** Starts a hosted payment for the order. Throws DomainError payment_provider_unavailable when the provider cannot be reached. */
  createSession(req: SessionRequest): Promise<PaymentSession>;
  /** Ends a session that will no longer be used (a newer one replaced it); best effort. */
  expireSession(id: string): Promise<void>;
}
