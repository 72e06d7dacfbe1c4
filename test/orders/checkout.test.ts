// create_checkout, the checkout page with the test provider (driven as a person with cookies and
// CSRF), the payment event path, fulfilment of all nine products by the real worker, each
// product's effect through the public API, refunds, expiry and a week that filled up meanwhile.
import { describe, expect, test } from 'bun:test';
import { conforms } from '../conforms.ts';
import { signInWithClient, WebClient } from '../browser.ts';
import { ordersOperations } from '../../api/operations/orders.ts';
import { recordPayment } from '../../core/orders/payments.ts';
import { expireOrders } from '../../core/orders/refund.ts';
import { ordersEnv } from './env.ts';
import { until } from '../eventually.ts';
import { runOpsCommand } from '../ops.ts';

const { env, call, listing, weeks } = ordersEnv({ socket: false, worker: true });
const opOutput = (name: string) => ordersOperations.find((o) => o.name === name)!.output;
const checkout = (body: unknown, key = crypto.randomUUID(), who: 'owner' | 'other' = 'owner') =>
  call('POST', '/orders/checkout', body, who, { 'idempotency-key': key });

const fulfilled = (number: string) =>
  until(`order ${number} fulfilled`, async () => {
    const { body } = await call('GET', `/orders/${number}`);
    return body.status === 'fulfilled' ? body : undefined;
  });
/** Pays through the same event path the providers use, as the test provider would. */
const pay = async (number: string) => {
  const { body } = await call('GET', `/orders/${number}`);
  return recordPayment(env.app.sql, {
    provider: 'test',
    eventId: `evt_${number}`,
    type: 'test.payment_succeeded',
    orderNumber: number,
    amountCents: body.total_cents,
    currency: body.currency,
  });
};
const ops = (...argv: string[]) => runOpsCommand(argv, { sql: env.app.sql, actor: 'test' });
const publicJson = (path: string) => env.app.json(path);
const slugOf = async (id: number) => (await env.app.sql`select slug from listings where id = ${id}`)[0].slug as string;

describe('create_checkout', () => {
  test('201 with a pending order and checkout_url; Idempotency-Key replays the same order, another body is 422', async () => {
    const id = await listing();
    const body = { items: [{ product: 'launch', listing_id: id }], billing_country: 'FR' };
    const key = crypto.randomUUID();
    const first = await checkout(body, key);
    expect(first.status).toBe(201);
    conforms(opOutput('create_checkout'), first.body);
    expect(first.body).toMatchObject({
      status: 'pending',
      provider: 'test',
      test_mode: true,
      total_cents: 5880,
      vat_cents: 980,
      vat: { rule: 'eu_standard_rate' },
    });
    expect(first.body.number).toMatch(/^LD(-[0-9A-Z]{4}){4}$/);
    expect(first.body.checkout_url).toBe(`${env.app.config.siteUrl}/checkout/${first.body.number}`);
    const again = await checkout(body, key);
    expect(again.status).toBe(201);
    expect(again.body.number).toBe(first.body.number);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await checkout({ ...body, billing_country: 'US' }, key)).status).toBe(422);
    const [{ n }] = await env.app.sql`select count(*)::int as n from orders where number = ${first.body.number}`;
    expect(n).toBe(1);
  });

  test('validation is the same as quote_order; a failed checkout saves nothing', async () => {
    const before = (await env.app.sql`select count(*)::int as n from orders`)[0].n;
    const res = await checkout({ items: [{ product: 'launch', listing_id: await listing({ status: 'live' }) }] });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('items[0].listing_id');
    expect((await env.app.sql`select count(*)::int as n from orders`)[0].n).toBe(before);
  });

  test('list_my_orders newest first; get_order of another account is 404', async () => {
    const a = await checkout({ items: [{ product: 'featured', listing_id: await listing() }] });
    const b = await checkout({ items: [{ product: 'ai_review', listing_id: await listing() }] });
    const list = await call('GET', '/orders?per_page=2');
    expect(list.status).toBe(200);
    conforms(opOutput('list_my_orders'), list.body);
    expect(list.body.items.map((o: any) => o.number)).toEqual([b.body.number, a.body.number]);
    expect(list.body.total).toBeGreaterThanOrEqual(2);
    expect((await call('GET', `/orders/${a.body.number}`, undefined, 'other')).status).toBe(404);
    expect((await call('GET', '/orders/LD-0000-0000-0000-0000')).status).toBe(404);
    expect((await call('GET', `/orders/${'x'.repeat(33)}`)).status).toBe(404);
    const got = await call('GET', `/orders/${a.body.number}`, undefined, 'reader');
    expect(got.status).toBe(200);
    conforms(opOutput('get_order'), got.body);
  });
});

describe('the checkout page with the test provider', () => {
  test('signed-in owner only, CSRF, billing re-prices VAT, test mode on every screen, pay marks paid and fulfils', async () => {
    const id = await listing();
    const { body: order } = await checkout({ items: [{ product: 'launch', listing_id: id }] });
    const path = new URL(order.checkout_url).pathname;

    // Not signed in: to the sign-in page and back.
    const anon = new WebClient(env.app.url, env.app.fetch);
    const redirected = await anon.get(path);
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get('location')).toContain(`/sign-in?return_to=${encodeURIComponent(path)}`);
    // Another person: the same 404 as no order.
    const other = new WebClient(env.app.url, env.app.fetch);
    await signInWithClient(other, env.app.sql, 'other@example.com');
    expect((await other.get(path)).status).toBe(404);

    const web = new WebClient(env.app.url, env.app.fetch);
    await signInWithClient(web, env.app.sql, 'owner@example.com');
    const first = await web.get(path);
    expect(first.status).toBe(200);
    const page = await first.text();
    expect(page).toContain('Test mode');
    expect(page).toContain(order.number);
    expect(page).toContain('49.00 USD');
    expect(page).toContain('Enter and save your billing details to pay.');
    expect(first.headers.get('content-security-policy')).toContain("form-action 'self'");

    // Without the CSRF token the form is refused.
    expect((await web.post(`${path}/billing`, { name: 'Ada', address: 'Main St 1', country: 'FR', vat_number: '' })).status).toBe(403);
    // Bad billing details re-render with the errors.
    let csrf = await web.csrf(path);
    const bad = await web.post(`${path}/billing`, { csrf, name: '', address: 'Main St 1', country: 'XX', vat_number: '' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('two-letter country code');
    // A French consumer pays 20%.
    csrf = await web.csrf(path);
    expect((await web.post(`${path}/billing`, { csrf, name: 'Ada Lovelace', address: '1 Rue de Rivoli, Paris', country: 'fr', vat_number: '' })).status).toBe(
      303,
    );
    let html = await (await web.get(path)).text();
    expect(html).toContain('58.80 USD');
    expect(html).toContain('Test mode');
    // With a valid French business number: reverse charge.
    csrf = await web.csrf(path);
    await web.post(`${path}/billing`, { csrf, name: 'Analytical Engines SARL', address: '1 Rue de Rivoli, Paris', country: 'FR', vat_number: 'FR40303265045' });
    html = await (await web.get(path)).text();
    expect(html).toContain('Reverse charge');
    expect((await call('GET', `/orders/${order.number}`)).body).toMatchObject({
      total_cents: 4900,
      vat_cents: 0,
      vat: { rule: 'reverse_charge' },
      billing: { name: 'Analytical Engines SARL', country: 'FR', vat_number: 'FR40303265045' },
    });

    // Pay: to the test provider's page, then its Pay button.
    csrf = await web.csrf(path);
    const toProvider = await web.post(`${path}/pay`, { csrf });
    expect(toProvider.status).toBe(303);
    const providerUrl = new URL(toProvider.headers.get('location')!);
    expect(providerUrl.pathname).toBe(`${path}/test-pay`);
    const testPage = await web.get(providerUrl.pathname + providerUrl.search);
    const testHtml = await testPage.text();
    expect(testHtml).toContain('Test mode');
    expect(testHtml).toContain('49.00 USD');
    const session = /name="session" value="([^"]+)"/.exec(testHtml)![1];
    csrf = /name="csrf" value="([^"]+)"/.exec(testHtml)![1];
    const paid = await web.post(`${path}/test-pay`, { csrf, session });
    expect(paid.status).toBe(303);
    // A double click pays once: the same session is the same event.
    await web.post(`${path}/test-pay`, { csrf, session });

    const done = await fulfilled(order.number);
    expect(done.lines[0].fulfilment).toMatchObject({ status: 'fulfilled' });
    expect(done.lines[0].fulfilment.summary).toContain('Live now');
    expect(done.checkout_url).toBeNull();
    const events = await env.app.sql`select outcome from payment_events e join orders o on o.id = e.order_id where o.number = ${order.number}`;
    expect(events.map((e) => e.outcome)).toEqual(['applied']);
    const after = await (await web.get(path)).text();
    expect(after).toContain('Paid');
    // The listing is live, in this week's launches.
    const slug = await slugOf(id);
    await until('listing in this week', async () => {
      const { body } = await publicJson('/launches/weeks/this');
      return body.items.some((i: any) => i.listing?.slug === slug || i.slug === slug);
    });
    expect((await publicJson(`/listings/${slug}`)).body.plan).toBe('paid');
  }, 120_000);
});

describe('fulfilment of all nine products, each visible through the public API', () => {
  test('one order with every product; each line fulfilled exactly once', async () => {
    const ws = await weeks();
    const draft = await listing();
    const queued = await listing({ status: 'scheduled', launch_week: ws[7] });
    const live = await listing({ status: 'live', primary: 'developer-tools' });
    const bundle = await listing();
    // ai_review draws on the stored crawl of the listing's draft.
    await env.app.sql`insert into drafts (site_id, user_id, url, domain, status, fields, listing_id)
      values (${env.app.siteId}, ${env.userIds.owner}, 'https://lumen.example', 'lumen.example', 'ready',
              ${env.app.sql.json({ tagline: { value: 'Private notes for research teams', state: 'ai', evidence: [{ quote: 'Private notes for research teams', url: 'https://lumen.example/' }] } } as never)}, ${live})`;
    const items = [
      { product: 'launch', listing_id: draft, week: ws[2] },
      { product: 'skip_queue', listing_id: queued, week: ws[1] },
      { product: 'featured', listing_id: live },
      { product: 'done_for_you', listing_id: live, options: { notes: 'Skip Product Hunt, we launched there' } },
      { product: 'launch_bundle', listing_id: bundle },
      { product: 'extra_categories', listing_id: live, categories: ['databases', 'ci-cd'] },
      { product: 'relaunch', listing_id: live, week: ws[3] },
      { product: 'ai_review', listing_id: live, options: { focus: 'positioning' } },
      { product: 'billboard_min', listing_id: live, amount_cents: 777777 },
    ];
    const res = await checkout({ items, billing_country: 'US' });
    expect(res.status).toBe(201);
    expect(await pay(res.body.number)).toBe('applied');
    // The same event again, and a second event for the same order: no second fulfilment.
    expect(await pay(res.body.number)).toBe('duplicate_event');
    expect(
      await recordPayment(env.app.sql, {
        provider: 'test',
        eventId: 'another',
        type: 't',
        orderNumber: res.body.number,
        amountCents: res.body.total_cents,
        currency: 'USD',
      }),
    ).toBe('already_paid');
    const order = await fulfilled(res.body.number);
    conforms(opOutput('get_order'), order);
    expect(order.lines.every((l: any) => l.fulfilment.status === 'fulfilled' && l.fulfilment.fulfilled_at)).toBe(true);

    const slug = { draft: await slugOf(draft), queued: await slugOf(queued), live: await slugOf(live), bundle: await slugOf(bundle) };
    // launch into a week: scheduled there, paid plan, no badge needed.
    expect((await publicJson(`/launches/weeks/${ws[2]}`)).body.items.map((i: any) => i.listing?.slug ?? i.slug)).toContain(slug.draft);
    // skip_queue: the free listing moved to the bought week.
    expect((await publicJson(`/launches/weeks/${ws[1]}`)).body.items.map((i: any) => i.listing?.slug ?? i.slug)).toContain(slug.queued);
    expect((await publicJson(`/launches/weeks/${ws[7]}`)).body.items.map((i: any) => i.listing?.slug ?? i.slug)).not.toContain(slug.queued);
    // featured: badge and profile.
    const profile = (await publicJson(`/listings/${slug.live}`)).body;
    expect(profile.featured_until).not.toBeNull();
    expect((await publicJson(`/listings/${slug.live}/badges`)).body.items.map((b: any) => b.kind)).toContain('featured');
    // extra_categories.
    expect(profile.categories.map((c: any) => c.slug)).toEqual(expect.arrayContaining(['developer-tools', 'databases', 'ci-cd']));
    // relaunch: a new launch week.
    expect(profile.launch_week).toBe(ws[3]);
    // ai_review: on the profile, quoting the website.
    expect(profile.ai_review.body).toContain('"Private notes for research teams"');
    expect(profile.ai_review.quotes).toEqual([{ quote: 'Private notes for research teams', url: 'https://lumen.example/' }]);
    expect(profile.ai_review.body).toContain('positioning');
    // launch_bundle: live now, featured, sections unlocked.
    const b = (await publicJson(`/listings/${slug.bundle}`)).body;
    expect(b).toMatchObject({ plan: 'paid', milestones: [], media: [] });
    expect(b.featured_until).not.toBeNull();
    // done_for_you: an operator task with the notes, closed by the operator.
    const tasks = await ops('tasks');
    expect(tasks.text).toContain('Skip Product Hunt, we launched there');
    expect(tasks.text).toContain(res.body.number);
    const taskId = order.lines[3].fulfilment.details.task_id;
    expect((await ops('tasks', 'done', String(taskId))).code).toBe(0);
    expect((await ops('tasks')).text).not.toContain('Skip Product Hunt');
    // billboard_min: the billboard leaderboard shows the contribution, as paid (views refreshed by the worker).
    await until('billboard', async () => {
      const { body } = await publicJson('/leaderboards/billboard');
      return body.items.find((i: any) => (i.listing?.slug ?? i.slug) === slug.live && JSON.stringify(i).includes('777777'));
    });
    // Exactly once: one of each effect.
    const [counts] = await env.app.sql`select
      (select count(*)::int from billboard_contributions where listing_id = ${live}) as billboard,
      (select count(*)::int from listing_featured where listing_id = ${live}) as featured,
      (select count(*)::int from operator_tasks where listing_id = ${live}) as tasks,
      (select count(*)::int from listing_ai_reviews where listing_id = ${live}) as reviews`;
    expect(counts).toEqual({ billboard: 1, featured: 1, tasks: 1, reviews: 1 });

    // Refund by the operator: reversible lines reversed, the rest said.
    const refund = await ops('order', 'refund', res.body.number);
    expect(refund.code).toBe(0);
    expect(refund.text).toContain('NOT reversed');
    const refunded = (await call('GET', `/orders/${res.body.number}`)).body;
    expect(refunded.status).toBe('refunded');
    const byProduct = Object.fromEntries(refunded.lines.map((l: any) => [l.product, l]));
    expect(byProduct.featured.fulfilment.status).toBe('reversed');
    expect(byProduct.billboard_min.fulfilment.status).toBe('reversed');
    expect(byProduct.done_for_you.fulfilment.reversal.note).toContain('Cannot be undone');
    expect(byProduct.relaunch.fulfilment.reversal.reversed).toBe(false);
    expect(byProduct.launch.fulfilment.status).toBe('reversed');
    const afterRefund = (await publicJson(`/listings/${slug.live}`)).body;
    expect(afterRefund.featured_until).toBeNull();
    expect(afterRefund.ai_review).toBeNull();
    expect(afterRefund.categories.map((c: any) => c.slug)).not.toContain('databases');
    expect((await env.app.sql`select count(*)::int as n from billboard_contributions where listing_id = ${live}`)[0].n).toBe(0);
    expect((await ops('order', 'refund', res.body.number)).text).toContain('already refunded');
    // The operator's task closing and the refund are in the audit trail, with before and after.
    const audit = await env.app
      .sql`select action, before, after from operator_audit where target in (${`task:${taskId}`}, ${`order:${res.body.number}`}) order by id`;
    expect(audit.map((r) => r.action)).toEqual(['task.done', 'order.refund', 'order.refund']);
    expect([audit[0].before.status, audit[0].after.status]).toEqual(['open', 'done']);
    expect(audit[1].before.status).toBe('fulfilled');
  }, 180_000);

  test('a payment with the wrong amount or currency changes nothing', async () => {
    const res = await checkout({ items: [{ product: 'featured', listing_id: await listing() }] });
    const ev = { provider: 'test' as const, type: 't', orderNumber: res.body.number, currency: 'USD' };
    expect(await recordPayment(env.app.sql, { ...ev, eventId: 'short', amountCents: 1 })).toBe('amount_mismatch');
    expect(await recordPayment(env.app.sql, { ...ev, eventId: 'eur', amountCents: res.body.total_cents, currency: 'EUR' })).toBe('amount_mismatch');
    expect(await recordPayment(env.app.sql, { ...ev, eventId: 'nobody', orderNumber: 'LD-NOPE-NOPE-NOPE-NOPE', amountCents: 1 })).toBe('unknown_order');
    expect((await call('GET', `/orders/${res.body.number}`)).body.status).toBe('pending');
  });

  test('the chosen week filled up before payment: the next week with a free slot, and the line says so', async () => {
    const ws = await weeks();
    const id = await listing();
    const res = await checkout({ items: [{ product: 'launch', listing_id: id, week: ws[5] }] });
    await env.app.sql`update sites set launch_slots_per_week = 1 where id = ${env.app.siteId}`;
    try {
      await listing({ status: 'scheduled', plan: 'paid', launch_week: ws[5] });
      await pay(res.body.number);
      const order = await fulfilled(res.body.number);
      expect(order.lines[0].fulfilment.details).toMatchObject({ week: ws[6], requested_week: ws[5] });
      expect(order.lines[0].fulfilment.details.moved_because).toContain('filled up');
    } finally {
      await env.app.sql`update sites set launch_slots_per_week = 20 where id = ${env.app.siteId}`;
    }
  }, 120_000);

  test('abandoned checkouts expire: status expired, the page says so, payment no longer offered', async () => {
    const res = await checkout({ items: [{ product: 'featured', listing_id: await listing() }] });
    await env.app.sql`update orders set expires_at = now() - interval '1 minute' where number = ${res.body.number}`;
    expect((await call('GET', `/orders/${res.body.number}`)).body).toMatchObject({ status: 'expired', checkout_url: null });
    const web = new WebClient(env.app.url, env.app.fetch);
    await signInWithClient(web, env.app.sql, 'owner@example.com');
    const page = await web.get(`/checkout/${res.body.number}`);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('expired');
    expect(await expireOrders(env.app.sql)).toBeGreaterThanOrEqual(1);
    expect((await env.app.sql`select status from orders where number = ${res.body.number}`)[0].status).toBe('expired');
    expect((await ops('order', 'refund', res.body.number)).code).toBe(1);
  });
});
