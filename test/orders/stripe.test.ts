// Stripe end to end with the official `stripe` package pointed at a Stripe-compatible server on
// loopback, and webhooks signed with the SDK's own test-header helper: the Checkout Session's
// line items, the signature checks, replays, out-of-order events, 50 concurrent copies of one
// event, amount checks, refunds, and Stripe being unreachable at checkout creation.
import { afterAll, describe, expect, test } from 'bun:test';
import Stripe from 'stripe';
import { signInWithClient, WebClient } from '../browser.ts';
import { chargeRefunded, sessionCompleted, startFakeStripe, type FakeSession } from './stripe-server.ts';
import { ordersEnv } from './env.ts';
import { runOps } from '../../pipeline/ops/run.ts';
import { until } from '../eventually.ts';

const WEBHOOK_SECRET = 'whsec_test_orders_secret';
const fake = startFakeStripe();
afterAll(() => fake.stop());
const { env, call, listing } = ordersEnv({
  socket: false,
  worker: true,
  env: { STRIPE_SECRET_KEY: 'sk_test_orders', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url },
});
const stripe = new Stripe('sk_test_orders');

const checkout = (body: unknown) => call('POST', '/orders/checkout', body, 'owner', { 'idempotency-key': crypto.randomUUID() });
const sessionOf = async (number: string): Promise<FakeSession> => {
  const [row] = await env.app.sql`select provider_session_id from orders where number = ${number}`;
  return fake.sessions.get(row.provider_session_id)!;
};
async function deliver(event: unknown, opts: { secret?: string; timestamp?: number; header?: string | null } = {}) {
  const payload = JSON.stringify(event);
  const header =
    opts.header !== undefined
      ? opts.header
      : await stripe.webhooks.generateTestHeaderStringAsync({
          payload,
          secret: opts.secret ?? WEBHOOK_SECRET,
          ...(opts.timestamp ? { timestamp: opts.timestamp } : {}),
        });
  return env.app.fetch(`${env.app.url}/webhooks/stripe`, {
    method: 'POST',
    body: payload,
    headers: { 'content-type': 'application/json', ...(header ? { 'stripe-signature': header } : {}) },
  });
}
const order = async (number: string) => (await call('GET', `/orders/${number}`)).body;

describe('Stripe Checkout', () => {
  test('create_checkout makes a Checkout Session with our line items and amounts plus a VAT line; Pay redirects there', async () => {
    const id = await listing();
    const res = await checkout({
      items: [
        { product: 'launch', listing_id: id },
        { product: 'featured', listing_id: id },
      ],
      billing_country: 'DE',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ provider: 'stripe', test_mode: false, total_cents: 17612, vat_cents: 2812 });
    const s = await sessionOf(res.body.number);
    expect(s.client_reference_id).toBe(res.body.number);
    expect(s.metadata).toEqual({ order_number: res.body.number });
    expect(s.currency).toBe('usd');
    expect(s.line_items.map((l) => l.unit_amount)).toEqual([4900, 9900, 2812]);
    expect(s.line_items[2].name).toContain('VAT 19%');
    expect(s.amount_total).toBe(res.body.total_cents);
    expect(fake.requests.at(-1)!.auth).toBe('Bearer sk_test_orders');

    const web = new WebClient(env.app.url, env.app.fetch);
    await signInWithClient(web, env.app.sql, 'owner@example.com');
    const path = `/checkout/${res.body.number}`;
    const first = await web.get(path);
    expect(await first.text()).not.toContain('Test mode');
    expect(first.headers.get('content-security-policy')).toContain('https://checkout.stripe.com');
    let csrf = await web.csrf(path);
    await web.post(`${path}/billing`, { csrf, name: 'Ada GmbH', address: 'Unter den Linden 1, Berlin', country: 'DE', vat_number: '' });
    csrf = await web.csrf(path);
    const go = await web.post(`${path}/pay`, { csrf });
    expect(go.status).toBe(303);
    expect(go.headers.get('location')).toBe(s.url); // same total: the same session
    // Billing details that change the total make a new session (the old one is expired).
    csrf = await web.csrf(path);
    await web.post(`${path}/billing`, { csrf, name: 'Ada Inc', address: '1 Main St, Boston', country: 'US', vat_number: '' });
    csrf = await web.csrf(path);
    const again = await web.post(`${path}/pay`, { csrf });
    const s2 = await sessionOf(res.body.number);
    expect(again.headers.get('location')).toBe(s2.url);
    expect(s2.id).not.toBe(s.id);
    expect(s2.amount_total).toBe(14800);
    expect(s.status).toBe('expired');
  });

  test('Stripe unreachable at checkout creation: 503 payment_provider_unavailable with Retry-After, nothing saved', async () => {
    const id = await listing();
    const before = (await env.app.sql`select count(*)::int as n from orders`)[0].n;
    fake.stop();
    try {
      const res = await checkout({ items: [{ product: 'launch', listing_id: id }] });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('payment_provider_unavailable');
      expect(res.headers.get('retry-after')).toBe('30');
      expect((await env.app.sql`select count(*)::int as n from orders`)[0].n).toBe(before);
    } finally {
      fake.start();
    }
    expect((await checkout({ items: [{ product: 'launch', listing_id: id }] })).status).toBe(201);
  }, 60_000);
});

describe('Stripe webhooks', () => {
  test('signed checkout.session.completed pays and fulfils; unsigned, forged and stale events are refused', async () => {
    const id = await listing();
    const res = await checkout({ items: [{ product: 'launch', listing_id: id }], billing_country: 'US' });
    const ev = sessionCompleted(await sessionOf(res.body.number));
    expect((await deliver(ev, { header: null })).status).toBe(400);
    expect((await deliver(ev, { secret: 'whsec_wrong' })).status).toBe(400);
    expect((await deliver(ev, { header: 't=1,v1=deadbeef' })).status).toBe(400);
    expect((await deliver(ev, { timestamp: Math.floor(Date.now() / 1000) - 600 })).status).toBe(400);
    expect((await order(res.body.number)).status).toBe('pending');

    const ok = await deliver(ev);
    expect(ok.status).toBe(200);
    expect((await ok.json()).outcome).toBe('applied');
    const done = await until('fulfilled', async () => {
      const o = await order(res.body.number);
      return o.status === 'fulfilled' ? o : null;
    });
    expect(done.lines[0].fulfilment.status).toBe('fulfilled');
    // Replayed later (same event id, freshly signed): nothing happens twice.
    const replay = await deliver(ev);
    expect(replay.status).toBe(200);
    expect((await replay.json()).outcome).toBe('duplicate_event');
  }, 120_000);

  test('50 concurrent copies of one event: one payment, one fulfilment', async () => {
    const id = await listing({ status: 'live' });
    const res = await checkout({ items: [{ product: 'billboard_min', listing_id: id, amount_cents: 5000 }], billing_country: 'US' });
    const ev = sessionCompleted(await sessionOf(res.body.number));
    const answers = await Promise.all(Array.from({ length: 50 }, () => deliver(ev)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const outcomes = await Promise.all(answers.map(async (a) => (await a.json()).outcome));
    expect(outcomes.filter((o) => o === 'applied')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate_event')).toHaveLength(49);
    await until('fulfilled', async () => (await order(res.body.number)).status === 'fulfilled');
    const [c] = await env.app.sql`select (select count(*)::int from billboard_contributions where listing_id = ${id}) as contributions,
      (select count(*)::int from payment_events where event_id = ${ev.id}) as events`;
    expect(c).toEqual({ contributions: 1, events: 1 });
  }, 120_000);

  test('a different event for an already paid order, and a wrong amount or currency, change nothing', async () => {
    const id = await listing();
    const res = await checkout({ items: [{ product: 'featured', listing_id: id }], billing_country: 'US' });
    const s = await sessionOf(res.body.number);
    const short = await deliver(sessionCompleted(s, { amount_total: 1 }));
    expect((await short.json()).outcome).toBe('amount_mismatch');
    const eur = await deliver(sessionCompleted(s, { currency: 'eur' }));
    expect((await eur.json()).outcome).toBe('amount_mismatch');
    expect((await order(res.body.number)).status).toBe('pending');
    expect((await (await deliver(sessionCompleted(s))).json()).outcome).toBe('applied');
    expect((await (await deliver(sessionCompleted(s))).json()).outcome).toBe('already_paid');
    // Unknown event types and orders are acknowledged and ignored.
    const other = await deliver({ id: 'evt_other', object: 'event', type: 'customer.created', created: Math.floor(Date.now() / 1000), data: { object: {} } });
    expect(other.status).toBe(200);
    const unknown = await deliver(sessionCompleted({ ...s, client_reference_id: 'LD-0000-0000-0000-0000', metadata: {} }));
    expect((await unknown.json()).outcome).toBe('unknown_order');
  }, 60_000);

  test('charge.refunded refunds and reverses; before its payment event (reordered) the late payment fulfils nothing', async () => {
    const id = await listing({ status: 'live' });
    const res = await checkout({ items: [{ product: 'featured', listing_id: id }], billing_country: 'US' });
    const s = await sessionOf(res.body.number);
    await deliver(sessionCompleted(s));
    await until('fulfilled', async () => (await order(res.body.number)).status === 'fulfilled');
    const refund = chargeRefunded(s);
    expect((await (await deliver(refund)).json()).outcome).toBe('refunded');
    const o = await order(res.body.number);
    expect(o.status).toBe('refunded');
    expect(o.lines[0].fulfilment).toMatchObject({ status: 'reversed', reversal: { reversed: true } });
    expect((await (await deliver(refund)).json()).outcome).toBe('duplicate_event');

    // Out of order: the refund first, then the payment.
    const id2 = await listing();
    const res2 = await checkout({ items: [{ product: 'launch', listing_id: id2 }], billing_country: 'US' });
    const s2 = await sessionOf(res2.body.number);
    expect((await (await deliver(chargeRefunded(s2))).json()).outcome).toBe('refund_waiting');
    expect((await (await deliver(sessionCompleted(s2))).json()).outcome).toBe('refunded_order');
    const o2 = await order(res2.body.number);
    expect(o2.status).toBe('refunded');
    expect(o2.lines[0].fulfilment.status).toBe('cancelled');
    expect((await env.app.sql`select status from listings where id = ${id2}`)[0].status).toBe('draft');
  }, 120_000);

  test("the operator refund of a Stripe order returns the money at Stripe first; Stripe's own charge.refunded then changes nothing", async () => {
    const id = await listing({ status: 'live' });
    const res = await checkout({ items: [{ product: 'ai_review', listing_id: id }], billing_country: 'US' });
    const s = await sessionOf(res.body.number);
    await deliver(sessionCompleted(s));
    await until('fulfilled', async () => (await order(res.body.number)).status === 'fulfilled');
    const lines: string[] = [];
    const code = await runOps(['order', 'refund', res.body.number], {
      sql: env.app.sql,
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
      config: env.app.config,
    });
    expect(code).toBe(0);
    expect(fake.refunds.at(-1)).toMatchObject({ payment_intent: `pi_test_${s.id.slice(8)}`, metadata: { order_number: res.body.number } });
    expect(lines.join('\n')).toContain('Stripe refund re_test_');
    expect((await order(res.body.number)).status).toBe('refunded');
    expect((await (await deliver(chargeRefunded(s))).json()).outcome).toBe('already_refunded');
  }, 120_000);
});
