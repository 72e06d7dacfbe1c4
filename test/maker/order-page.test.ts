import { describe, expect, test } from 'bun:test';
import { ordersEnv } from '../orders/env.ts';
import { signInWithClient, WebClient } from '../browser.ts';
import { thisWeek } from '../../api/site/maker/order-page.tsx';

// Ordering from the site: products for one of your listings (weeks where a product takes one),
// the quote with VAT for the billing country, then the existing checkout page.

const { env, call, listing, weeks } = ordersEnv({ socket: false });
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1];

describe('order page', () => {
  test('quote with VAT for the billing country, the same numbers as quote_order, then checkout', async () => {
    const id = await listing({ status: 'draft' });
    const c = new WebClient(env.app.url, env.app.fetch);
    await signInWithClient(c, env.app.sql, 'owner@example.com');
    let html = await (await c.get(`/me/order?listing=${id}`)).text();
    expect(html).toContain(`<option value="${id}" selected`);
    expect(html).toContain('excl. VAT');
    const week = (await weeks())[1];
    const form = { csrf: csrfOf(html), listing: String(id), product: 'launch', 'week:launch': week, billing_country: 'de', do: 'quote' };
    let res = await c.post('/me/order', form);
    expect(res.status).toBe(200);
    html = await res.text();
    const api = (await call('POST', '/orders/quote', { items: [{ product: 'launch', listing_id: id, week }], billing_country: 'DE' })).body;
    expect(api.vat_cents).toBeGreaterThan(0);
    const total = new Intl.NumberFormat('en-US', { style: 'currency', currency: api.currency }).format(api.total_cents / 100);
    expect(html).toContain(`<strong class="quote-total">${total}</strong>`);
    expect(html).toContain(api.vat.note.replace(/&/g, '&amp;').replace(/</g, '&lt;'));
    // The API's own rules: a week it does not offer is refused with its message, naming the field.
    res = await c.post('/me/order', { ...form, 'week:launch': '2020-01-06' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('role="alert"');
    // Checkout: the existing checkout page of the new order.
    res = await c.post('/me/order', { ...form, do: 'checkout' });
    expect(res.status).toBe(303);
    const loc = new URL(res.headers.get('location')!);
    expect(loc.pathname).toMatch(/^\/checkout\/LD-/);
    expect((await c.get(loc.pathname)).status).toBe(200);
    const [o] = await env.app.sql`select count(*)::int as n from orders where number = ${loc.pathname.split('/').pop()!}`;
    expect(o.n).toBe(1);
  });

  test("another person's listing cannot be ordered for (the API's 404)", async () => {
    const theirs = await listing({ owner: 'other', status: 'draft' });
    const c = new WebClient(env.app.url, env.app.fetch);
    await signInWithClient(c, env.app.sql, 'owner@example.com');
    const html = await (await c.get('/me/order')).text();
    expect(html).not.toContain(`value="${theirs}"`);
    const res = await c.post('/me/order', { csrf: csrfOf(html), listing: String(theirs), product: 'launch', do: 'checkout' });
    expect(res.status).toBe(404);
  });

  test('the week a paid launch ranks in and the days left in it', () => {
    expect(thisWeek(new Date('2027-01-04T10:00:00Z'))).toEqual({ week: '2027-01-04', daysLeft: 7 });
    expect(thisWeek(new Date('2027-01-09T23:00:00Z'))).toEqual({ week: '2027-01-04', daysLeft: 2 });
    expect(thisWeek(new Date('2027-01-10T00:00:00Z'))).toEqual({ week: '2027-01-04', daysLeft: 1 });
  });
});
