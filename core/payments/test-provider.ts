import type { PaymentProvider, PaymentSession, SessionRequest } from './provider.ts';

/**
 * The built-in test provider (no keys needed): its "hosted page" is our own test-mode payment page
 * (/checkout/{number}/test-pay), whose Pay button reports a payment through the same event path
 * Stripe's webhook uses. Nothing is charged, and every screen says "test mode".
 */
export function createTestProvider(siteUrl: string): PaymentProvider {
  return {
    kind: 'test',
    async createSession(req: SessionRequest): Promise<PaymentSession> {
      const id = `test_cs_${crypto.randomUUID().replace(/-/g, '')}`;
      return { id, url: `${siteUrl}/checkout/${encodeURIComponent(req.orderNumber)}/test-pay?session=${id}` };
    },
    async expireSession() {},
  };
}
