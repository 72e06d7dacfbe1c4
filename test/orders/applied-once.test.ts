// Orders that would do nothing are refused before anyone pays: a second launch, skip_queue or
// relaunch for a listing that already has one pending, paid or in effect; a launch of a product
// another listing already shows; and when two pending orders race, the second one paid is not
// applied and is refunded automatically.
import { describe, expect, test } from 'bun:test';
import { recordPayment } from '../../core/orders/payments.ts';
import { signInWithClient, WebClient } from '../browser.ts';
import { callMcpTool } from '../mcp-call.ts';
import { ordersEnv } from './env.ts';
import { until } from '../eventually.ts';

const { env, call, listing, weeks } = ordersEnv({ socket: false, worker: true });
const checkout = (body: unknown, who: 'owner' | 'other' = 'owner') => call('POST', '/orders/checkout', body, who, { 'idempotency-key': crypto.randomUUID() });
const quote = (body: unknown, who: 'owner' | 'other' = 'owner') => call('POST', '/orders/quote', body, who);
const pay = async (number: string, event = `evt_${number}`) => {
  const { body } = await call('GET', `/orders/${number}`);
  return recordPayment(env.app.sql, {
    provider: 'test',
    eventId: event,
    type: 'test.payment_succeeded',
    orderNumber: number,
    amountCents: body.total_cents,
    currency: body.currency,
  });
};
const orderStatus = (number: string) => async () => (await call('GET', `/orders/${number}`)).body.status as string;

describe('a second launch, skip_queue or relaunch is refused at quote and checkout', () => {
  test('launch: pending, then paid and applied; REST and MCP say product_already_applied', async () => {
    const id = await listing();
    const first = await checkout({ items: [{ product: 'launch', listing_id: id }] });
    expect(first.status).toBe(201);
    for (const res of [
      await quote({ items: [{ product: 'launch', listing_id: id }] }),
      await checkout({ items: [{ product: 'launch_bundle', listing_id: id }] }),
    ]) {
      expect([res.status, res.body.code]).toEqual([409, 'product_already_applied']);
      expect(res.body.detail).toContain(first.body.number);
      expect(res.body.existing_order).toMatchObject({ number: first.body.number, state: 'pending' });
    }
    const viaMcp = await callMcpTool(env.app, env.keys.owner, 'quote_order', { items: [{ product: 'launch', listing_id: id }] });
    expect([viaMcp.isError, viaMcp.body.code]).toEqual([true, 'product_already_applied']);
    await pay(first.body.number);
    await until('fulfilled', async () => (await orderStatus(first.body.number)()) === 'fulfilled');
    const after = await quote({ items: [{ product: 'launch', listing_id: id }] });
    expect([after.status, after.body.code]).toEqual([409, 'product_already_applied']);
  });

  test('skip_queue and relaunch', async () => {
    const [week] = (await weeks()).slice(-1);
    const queued = await listing({ status: 'awaiting_badge', launch_week: (await weeks())[0] });
    expect((await checkout({ items: [{ product: 'skip_queue', listing_id: queued, week }] })).status).toBe(201);
    const again = await checkout({ items: [{ product: 'skip_queue', listing_id: queued, week }] });
    expect([again.status, again.body.code]).toEqual([409, 'product_already_applied']);
    const live = await listing({ status: 'live' });
    expect((await checkout({ items: [{ product: 'relaunch', listing_id: live, week }] })).status).toBe(201);
    const twice = await quote({ items: [{ product: 'relaunch', listing_id: live, week }] });
    expect([twice.status, twice.body.code]).toEqual([409, 'product_already_applied']);
  });
});

describe('two pending orders for one launch', () => {
  test('the pay step refuses the second once the first is paid; if its payment lands anyway it is not applied and is refunded', async () => {
    const id = await listing();
    const first = await checkout({ items: [{ product: 'launch', listing_id: id }] });
    // A second pending order, as two concurrent checkouts would make.
    await env.app.sql`update orders set status = 'expired' where number = ${first.body.number}`;
    const second = await checkout({ items: [{ product: 'launch', listing_id: id }] });
    expect(second.status).toBe(201);
    await env.app.sql`update orders set status = 'pending' where number = ${first.body.number}`;
    await pay(first.body.number);
    await until('first fulfilled', async () => (await orderStatus(first.body.number)()) === 'fulfilled');

    const web = new WebClient(env.app.url, env.app.fetch);
    await signInWithClient(web, env.app.sql, 'owner@example.com');
    const path = `/checkout/${second.body.number}`;
    let csrf = await web.csrf(path);
    await web.post(`${path}/billing`, { csrf, name: 'Ada Lovelace', address: '1 Main St', country: 'US', vat_number: '' });
    csrf = await web.csrf(path);
    const refused = await web.post(`${path}/pay`, { csrf });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('would do nothing');

    // The race lost: its payment is recorded anyway. Nothing is applied twice, and the money goes back.
    const before = (await env.app.sql`select status, plan, to_char(launch_week, 'YYYY-MM-DD') as w from listings where id = ${id}`)[0];
    await pay(second.body.number);
    await until('second refunded', async () => (await orderStatus(second.body.number)()) === 'refunded');
    const [line] = await env.app.sql`select fulfilment from order_lines ol join orders o on o.id = ol.order_id where o.number = ${second.body.number}`;
    expect(line.fulfilment).toMatchObject({ applied: false, refund_due: true });
    expect((await env.app.sql`select status, plan, to_char(launch_week, 'YYYY-MM-DD') as w from listings where id = ${id}`)[0]).toEqual(before);
  });
});

describe('one public listing per product', () => {
  test('a launch of a product another listing already shows is 409 listing_exists at quote, and a lost race is refunded', async () => {
    const shown = await listing({ owner: 'other', status: 'live', slug: 'dupe-product' });
    const copy = await listing({ slug: 'dupe-copy' });
    await env.app.sql`update listings set url = 'https://dupe-product.example/', domain = 'dupe-product.example' where id = ${copy}`;
    const res = await quote({ items: [{ product: 'launch', listing_id: copy }] });
    expect([res.status, res.body.code]).toEqual([409, 'listing_exists']);
    expect(res.body.existing_listing).toMatchObject({ slug: 'dupe-product' });
    expect(res.body.claim).toMatchObject({ operation: 'claim_listing', body: { slug: 'dupe-product' } });

    // The other listing went public after checkout: the paid launch is not applied and is refunded.
    await env.app.sql`update listings set status = 'draft' where id = ${shown}`;
    const order = await checkout({ items: [{ product: 'launch', listing_id: copy }] });
    expect(order.status).toBe(201);
    await env.app.sql`update listings set status = 'live' where id = ${shown}`;
    await pay(order.body.number);
    await until('refunded', async () => (await orderStatus(order.body.number)()) === 'refunded');
    expect((await env.app.sql`select status from listings where id = ${copy}`)[0].status).toBe('draft');
  });
});

describe('featured', () => {
  test('bought for a listing that is not live, it starts when the listing goes live, not at payment', async () => {
    const id = await listing();
    const feat = await checkout({ items: [{ product: 'featured', listing_id: id }] });
    await pay(feat.body.number);
    await until('featured fulfilled', async () => (await orderStatus(feat.body.number)()) === 'fulfilled');
    expect(await env.app.sql`select 1 from listing_featured where listing_id = ${id}`).toHaveLength(0);
    const [line] = await env.app.sql`select fulfilment from order_lines ol join orders o on o.id = ol.order_id where o.number = ${feat.body.number}`;
    expect(line.fulfilment).toMatchObject({ waiting_for_live: true, featured_from: null });
    const launch = await checkout({ items: [{ product: 'launch', listing_id: id }] });
    await pay(launch.body.number);
    await until('launch fulfilled', async () => (await orderStatus(launch.body.number)()) === 'fulfilled');
    const [f] = await env.app.sql`select f.starts_at >= l.launched_at as from_live, f.ends_at - f.starts_at = interval '7 days' as week
                                  from listing_featured f join listings l on l.id = f.listing_id where f.listing_id = ${id}`;
    expect(f).toEqual({ from_live: true, week: true });
  });
});

describe('the test provider', () => {
  test('its pay step requires billing details, as the order page does', async () => {
    const id = await listing();
    const order = await checkout({ items: [{ product: 'featured', listing_id: id }] });
    const web = new WebClient(env.app.url, env.app.fetch);
    await signInWithClient(web, env.app.sql, 'owner@example.com');
    const path = `/checkout/${order.body.number}`;
    const csrf = await web.csrf(path);
    const res = await web.post(`${path}/test-pay`, { csrf, session: order.body.number });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).not.toContain('paid=1');
    expect(await orderStatus(order.body.number)()).toBe('pending');
  });
});
