// set_listing_revenue (self-reported, or a restricted Stripe key read by the worker from the
// Stripe-compatible local server, stored sealed), the revenue board's sources and exchange rates,
// and get_listing_stats with the counters behind it: the counting redirect, the view pixel, badge
// impressions by referring host, follows and votes. Both operations over REST and MCP.
import { Client as McpClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { conforms } from '../conforms.ts';
import { signInWithClient, WebClient } from '../browser.ts';
import { eventually } from '../eventually.ts';
import { startFakeStripe, type FakeSubscription } from '../orders/stripe-server.ts';
import { makeListing, ownersEnv } from './env.ts';
import { makerInsightsOperations } from '../../api/operations/maker-insights.ts';
import { runOpsCommand } from '../ops.ts';

const stripe = startFakeStripe();
afterAll(() => stripe.stop());
const SECRET = 'ab'.repeat(32);
const { env, call, until, runJob } = ownersEnv({ socket: false, worker: true, env: { REVENUE_KEYS_SECRET: SECRET, REVENUE_STRIPE_API_URL: stripe.url } });
const output = (name: string) => makerInsightsOperations.find((o) => o.name === name)!.output;
const ops = (...argv: string[]) => runOpsCommand(argv, { sql: env.app.sql, actor: 'test' });

let mine = 0;
let second = 0;
let theirs = 0;
let slug = '';
beforeAll(async () => {
  const { sql, siteId } = env.app;
  mine = await makeListing(sql, { siteId, userId: env.userIds.owner, status: 'live' });
  second = await makeListing(sql, { siteId, userId: env.userIds.owner, status: 'live' });
  theirs = await makeListing(sql, { siteId, userId: env.userIds.other, status: 'live' });
  slug = (await sql`select slug from listings where id = ${mine}`)[0].slug;
});

const sub = (id: string, cents: number, interval: 'month' | 'year', currency = 'usd', quantity = 1): FakeSubscription => ({
  id,
  object: 'subscription',
  status: 'active',
  currency,
  customer: `cus_${id}`,
  items: { object: 'list', data: [{ quantity, price: { unit_amount: cents, currency, recurring: { interval, interval_count: 1 } } }] },
});

/** The revenue board after a refresh of the rankings, once the edge has heard of it (NOTIFY comes a moment after the commit). */
async function board(accept: (items: any[]) => boolean = () => true) {
  await env.app.sql`select refresh_directory_views()`;
  await env.app.sql`select directory_changed()`;
  return eventually(async () => (await env.app.json('/leaderboards/revenue')).body.items as any[], accept);
}

describe('set_listing_revenue', () => {
  test('self-reported: recorded for this month and shown on the board as self-reported', async () => {
    const res = await call('PUT', `/me/listings/${mine}/revenue`, { mrr_cents: 1_250_000, currency: 'EUR' });
    expect(res.status).toBe(200);
    conforms(output('set_listing_revenue'), res.body);
    expect(res.body).toMatchObject({
      listing_id: mine,
      source: 'self_reported',
      verified: false,
      mrr_cents: 1_250_000,
      currency: 'EUR',
      stripe_key_hint: null,
    });
    const item = (await board()).find((i) => i.listing.id === mine);
    expect(item.metric).toMatchObject({ value: 1_250_000, currency: 'EUR', source: 'self_reported', verified: false, usd_cents: null });
  });

  test('bad input is a 400 naming the field; another account’s listing is the same 404 as an unknown one', async () => {
    const both = await call('PUT', `/me/listings/${mine}/revenue`, { mrr_cents: 1, currency: 'USD', stripe_key: 'rk_test_abcdefghijkl' });
    expect(both.status).toBe(400);
    expect(both.body.errors.map((e: any) => e.field)).toContain('stripe_key');
    const neither = await call('PUT', `/me/listings/${mine}/revenue`, {});
    expect(neither.status).toBe(400);
    expect((await call('PUT', `/me/listings/${mine}/revenue`, { mrr_cents: 1 })).body.errors[0].field).toBe('currency');
    expect((await call('PUT', `/me/listings/${mine}/revenue`, { mrr_cents: -5, currency: 'USD' })).status).toBe(400);
    expect((await call('PUT', `/me/listings/${mine}/revenue`, { mrr_cents: 5, currency: 'usd' })).body.errors[0].field).toBe('currency');
    const secretKey = await call('PUT', `/me/listings/${mine}/revenue`, { stripe_key: 'sk_test_abcdefghijklmnop' });
    expect(secretKey.status).toBe(400);
    expect(secretKey.body.errors[0].field).toBe('stripe_key');
    const other = await call('PUT', `/me/listings/${theirs}/revenue`, { mrr_cents: 5, currency: 'USD' });
    const unknown = await call('PUT', '/me/listings/99999999/revenue', { mrr_cents: 5, currency: 'USD' });
    expect(other.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(other.body.detail.replace(String(theirs), 'N')).toBe(unknown.body.detail.replace('99999999', 'N'));
    expect((await call('PUT', `/me/listings/${mine}/revenue`, { mrr_cents: 5, currency: 'USD' }, 'reader')).status).toBe(403);
  });

  test('a restricted Stripe key is stored sealed, read by the worker from active subscriptions, and shown as verified', async () => {
    const key = `rk_test_${crypto.randomUUID().replace(/-/g, '')}`;
    stripe.subscriptions.set(key, [
      sub('sub_1', 2900, 'month'),
      sub('sub_2', 1000, 'month', 'usd', 3),
      sub('sub_3', 120_000, 'year'),
      { ...sub('sub_4', 99_900, 'month'), status: 'canceled' },
      sub('sub_5', 5000, 'month', 'eur'),
    ]);
    const res = await call('PUT', `/me/listings/${second}/revenue`, { stripe_key: key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ source: 'stripe', stripe_key_hint: key.slice(-4) });
    expect(JSON.stringify(res.body)).not.toContain(key);
    const [stored] = await env.app.sql`select stripe_key_sealed from listing_revenue_sources where listing_id = ${second}`;
    expect(Buffer.from(stored.stripe_key_sealed).toString('latin1')).not.toContain(key.slice(8));

    // The worker reads it at once: 2900 + 3 x 1000 + 120000 / 12 = 15900 USD cents; the EUR subscription is not counted.
    await until(
      () => env.app.sql`select last_checked_at from listing_revenue_sources where listing_id = ${second}`,
      (rows) => rows[0].last_checked_at !== null,
      'the key read',
    );
    const figure = await env.app
      .sql`select mrr_cents::int, currency, verified from revenue_figures f join listings l on l.company_id = f.company_id where l.id = ${second}`;
    expect(figure[0]).toMatchObject({ mrr_cents: 15_900, currency: 'USD', verified: true });
    expect(stripe.requests.some((r) => r.path === '/v1/subscriptions' && r.auth === `Bearer ${key}`)).toBe(true);
    const [src] = await env.app.sql`select last_error from listing_revenue_sources where listing_id = ${second}`;
    expect(src.last_error).toContain('1 subscriptions in EUR');

    // The board ranks by USD: without a EUR rate the self-reported EUR figure ranks last; with one it converts.
    let items = await board((all) => all.some((i) => i.listing.id === second));
    const verified = items.find((i) => i.listing.id === second);
    expect(verified.metric).toMatchObject({ value: 15_900, currency: 'USD', source: 'stripe', verified: true, usd_cents: 15_900 });
    expect(JSON.stringify(items)).not.toContain(key);
    expect(JSON.stringify(items)).not.toContain('cus_');
    expect(items.findIndex((i) => i.listing.id === second)).toBeLessThan(items.findIndex((i) => i.listing.id === mine));
    expect((await ops('fx', 'set', 'EUR', '1.08')).code).toBe(0);
    expect((await ops('fx', 'set', 'EUR', 'lots')).code).toBe(2);
    items = await board((all) => all.find((i) => i.listing.id === mine)?.metric.usd_cents !== null);
    expect(items.find((i) => i.listing.id === mine).metric.usd_cents).toBe(1_350_000);
    expect(items[0].listing.id).toBe(mine);

    // A key Stripe refuses leaves the figure alone and says why.
    stripe.subscriptions.delete(key);
    await runJob('refresh_revenue');
    const failed = await until(
      () => env.app.sql`select last_error from listing_revenue_sources where listing_id = ${second}`,
      (rows) => String(rows[0].last_error).includes('Stripe refused the key'),
      'the refusal noted',
    );
    expect(failed[0].last_error).toContain('Invalid API Key');
  });
});

describe('get_listing_stats', () => {
  test('views, clicks once per visitor a day, badge impressions by host, follows and votes, per day with zeros', async () => {
    const { sql } = env.app;
    const before = (await call('GET', `/me/listings/${mine}/stats?days=7`)).body;
    const go = (ua: string) => env.app.fetch(`${env.app.url}/go/${slug}`, { redirect: 'manual', headers: { 'user-agent': ua } });
    const first = await go('visitor-a');
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe((await sql`select url from listings where id = ${mine}`)[0].url);
    await go('visitor-a');
    await go('visitor-b');
    expect((await env.app.fetch(`${env.app.url}/go/no-such-listing`, { redirect: 'manual' })).status).toBe(404);
    for (let i = 0; i < 3; i++) expect((await env.app.fetch(`${env.app.url}/v/${slug}.gif`)).headers.get('content-type')).toBe('image/gif');
    for (const referer of ['https://maker.example/pricing', 'https://maker.example/', null]) {
      const badge = await env.app.fetch(`${env.app.url}/badges/${slug}/listed.svg`, { headers: referer ? { referer } : {} });
      expect(badge.status).toBe(200);
    }
    await sql`insert into follows (listing_id, user_id) values (${mine}, ${env.userIds.other})`;
    await sql`insert into votes (listing_id, user_id) values (${mine}, ${env.userIds.other})`;
    // A vote the site team discounted, and one by a suspended account, are kept but not counted.
    const [discounted, suspended] =
      await sql`insert into users (email) values ('stats-discounted@example.test'), ('stats-suspended@example.test') returning id`;
    await sql`update users set suspended_at = now(), suspended_reason = 'test' where id = ${suspended.id}`;
    await sql`insert into votes (listing_id, user_id, discounted_at, discount_reason) values (${mine}, ${discounted.id}, now(), 'test'), (${mine}, ${suspended.id}, null, null)`;
    // No address is stored: only hashes of the day's salt with the visitor.
    const visitors = await sql`select visitor from listing_click_visitors where listing_id = ${mine}`;
    expect(visitors).toHaveLength(2);
    expect(visitors.every((v) => !Buffer.from(v.visitor).toString('latin1').includes('127.0.0.1'))).toBe(true);

    // Badge impressions are counted in memory and written every few seconds.
    const res = await until(
      () => call('GET', `/me/listings/${mine}/stats?days=7`),
      (r) => r.body.series[6].badge_impressions - before.series[6].badge_impressions >= 3,
      'badge impressions written',
    );
    expect(res.status).toBe(200);
    conforms(output('get_listing_stats'), res.body);
    expect(res.body.series).toHaveLength(7);
    expect(res.body.series[6].day).toBe(res.body.to);
    const today = res.body.series[6];
    const todayBefore = before.series[6];
    expect(today.clicks - todayBefore.clicks).toBe(2);
    expect(today.views - todayBefore.views).toBe(3);
    expect(today.follows).toBe(1);
    expect(today.votes).toBe(1);
    expect(res.body.totals.clicks).toBe(res.body.series.reduce((n: number, d: any) => n + d.clicks, 0));
    expect(today.badge_impressions - todayBefore.badge_impressions).toBe(3);
    expect(res.body.badge_hosts).toEqual(
      expect.arrayContaining([
        { host: 'maker.example', impressions: 2 },
        { host: '(direct)', impressions: 1 },
      ]),
    );
    expect(res.body.series.slice(0, 6).every((d: any) => d.clicks === 0 && d.views === 0)).toBe(true);
  });

  test('owners only: another account’s listing is the same 404 as an unknown one; days is bounded', async () => {
    const other = await call('GET', `/me/listings/${theirs}/stats`);
    const unknown = await call('GET', '/me/listings/99999999/stats');
    expect(other.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect((await call('GET', `/me/listings/${mine}/stats?days=0`)).status).toBe(400);
    expect((await call('GET', `/me/listings/${mine}/stats?days=366`)).body.errors[0].field).toBe('days');
    const dflt = await call('GET', `/me/listings/${mine}/stats`, undefined, 'reader');
    expect(dflt.status).toBe(200);
    expect(dflt.body.series).toHaveLength(30);
  });

  test("the owner's statistics page draws each series as a server-rendered SVG chart; others get a 404", async () => {
    const owner = new WebClient(env.app.url, env.app.fetch);
    await signInWithClient(owner, env.app.sql, 'owner@example.com');
    const res = await owner.get(`/account/listings/${mine}/stats`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.match(/<svg[^>]*role="img"/g)).toHaveLength(7);
    expect(html).toMatch(/Website clicks<\/strong>: [1-9]/);
    expect(html).toContain('maker.example');
    expect(html).not.toContain('<script>');
    expect((await owner.get(`/account/listings/${theirs}/stats`)).status).toBe(404);
    expect((await owner.get('/account/listings/99999999/stats')).status).toBe(404);
    const anonymous = await env.app.fetch(`${env.app.url}/account/listings/${mine}/stats`, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
  });

  test('both operations are MCP tools with the same answers', async () => {
    const client = new McpClient({ name: 'insights-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${env.app.url}/mcp`), {
        fetch: env.app.fetch,
        requestInit: { headers: { authorization: `Bearer ${env.keys.owner}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['set_listing_revenue', 'get_listing_stats']));
      const stats: any = await client.callTool({ name: 'get_listing_stats', arguments: { listing_id: mine, days: 3 } });
      expect(stats.isError).toBeFalsy();
      expect(stats.structuredContent.series).toHaveLength(3);
      const theirsCall: any = await client.callTool({ name: 'get_listing_stats', arguments: { listing_id: theirs } });
      expect(theirsCall.isError).toBe(true);
      // Reads of the listing by API and MCP clients are counted for its maker (written every few seconds).
      const read: any = await client.callTool({ name: 'get_listing', arguments: { slug } });
      expect(read.isError).toBeFalsy();
      for (let i = 0; i < 2; i++) expect((await env.app.json(`/listings/${slug}`)).status).toBe(200);
      expect((await env.app.json('/listings/no-such-listing')).status).toBe(404);
      const counted = await until(
        async () => (await call('GET', `/me/listings/${mine}/stats?days=1`)).body.totals,
        (t: any) => t.api_reads >= 2 && t.mcp_reads >= 1,
        'API and MCP reads counted',
      );
      expect(counted).toMatchObject({ api_reads: 2, mcp_reads: 1 });
      const set: any = await client.callTool({ name: 'set_listing_revenue', arguments: { listing_id: mine, mrr_cents: 700, currency: 'USD' } });
      expect(set.isError).toBeFalsy();
      expect(set.structuredContent).toMatchObject({ source: 'self_reported', mrr_cents: 700 });
    } finally {
      await client.close();
    }
  });
});
