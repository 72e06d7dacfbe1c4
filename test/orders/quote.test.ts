// quote_order through the REST API against real PostgreSQL: every validation rule of the order
// body, prices from the database, VAT rules, and that nothing is saved.
import { describe, expect, test } from 'bun:test';
import { conforms } from '../conforms.ts';
import { ordersOperations } from '../../api/operations/orders.ts';
import { ordersEnv } from './env.ts';

const { env, call, listing, weeks } = ordersEnv({ socket: false });
const quote = (body: unknown, who: 'owner' | 'other' | 'reader' = 'owner') => call('POST', '/orders/quote', body, who);
const fields = (res: { body: any }) => (res.body.errors ?? []).map((e: any) => e.field);
const output = ordersOperations.find((o) => o.name === 'quote_order')!.output;

async function expect400(body: unknown, field: string, message?: RegExp, code?: string) {
  const res = await quote(body);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(fields(res)).toContain(field);
  if (message) expect(res.body.errors.find((e: any) => e.field === field).message).toMatch(message);
  if (code) expect(res.body.code).toBe(code);
  return res;
}

describe('quote_order prices with the database prices', () => {
  test('a launch, featured and billboard line: per-line and order totals in integer cents; nothing saved', async () => {
    const id = await listing();
    const res = await quote({
      items: [
        { product: 'launch', listing_id: id },
        { product: 'featured', listing_id: id },
        { product: 'billboard_min', listing_id: id, amount_cents: 2500 },
      ],
      billing_country: 'US',
    });
    expect(res.status).toBe(200);
    conforms(output, res.body);
    expect(res.body.currency).toBe('USD');
    expect(res.body.lines.map((l: any) => [l.product, l.amount_cents, l.vat_cents, l.total_cents])).toEqual([
      ['launch', 4900, 0, 4900],
      ['featured', 9900, 0, 9900],
      ['billboard_min', 2500, 0, 2500],
    ]);
    expect(res.body).toMatchObject({ subtotal_cents: 17300, vat_cents: 0, total_cents: 17300, vat: { rule: 'outside_eu' } });
    const [{ n }] = await env.app.sql`select count(*)::int as n from orders`;
    expect(n).toBe(0);
  });

  test('a new admin price is used once it is valid', async () => {
    const id = await listing();
    await env.app
      .sql`insert into product_prices (site_id, product_code, amount_cents, currency, valid_from) values (${env.app.siteId}, 'featured', 12345, 'USD', now())`;
    const res = await quote({ items: [{ product: 'featured', listing_id: id }] });
    expect(res.body.lines[0].amount_cents).toBe(12345);
    expect(res.body.vat.rule).toBe('no_country');
  });

  test('VAT: domestic (DE 19%), EU consumer rate, reverse charge with a valid number of another state, invalid number pays the rate', async () => {
    const id = await listing();
    const items = [{ product: 'ai_review', listing_id: id }]; // 900 cents
    const de = await quote({ items, billing_country: 'de' });
    expect(de.body).toMatchObject({ vat: { rule: 'domestic', rate_basis_points: 1900 }, vat_cents: 171, total_cents: 1071 });
    const fr = await quote({ items, billing_country: 'FR' });
    expect(fr.body).toMatchObject({ vat: { rule: 'eu_standard_rate', rate_basis_points: 2000, country: 'FR' }, vat_cents: 180 });
    const rc = await quote({ items, billing_country: 'FR', vat_number: 'fr 40 303 265 045' });
    expect(rc.body).toMatchObject({
      vat: { rule: 'reverse_charge', rate_basis_points: 0, vat_number: 'FR40303265045', vat_number_valid: true },
      vat_cents: 0,
      total_cents: 900,
    });
    expect(rc.body.vat.note).toContain('Reverse charge');
    const bad = await quote({ items, billing_country: 'FR', vat_number: 'FR00000000001' });
    expect(bad.body).toMatchObject({ vat: { rule: 'eu_standard_rate', vat_number_valid: false }, vat_cents: 180 });
    const ch = await quote({ items, billing_country: 'CH' });
    expect(ch.body).toMatchObject({ vat: { rule: 'outside_eu' }, vat_cents: 0 });
  });
});

describe('quote_order validation: every rule is a 400 naming the field', () => {
  test('body shape: items 1..20, unknown keys anywhere, bad country, long vat_number', async () => {
    const id = await listing();
    await expect400({ items: [] }, 'items');
    await expect400({ items: Array.from({ length: 21 }, () => ({ product: 'featured', listing_id: id })) }, 'items');
    await expect400({ items: [{ product: 'featured', listing_id: id }], coupon: 'X' }, 'coupon', /not a known field/);
    await expect400(
      {
        items: [
          { product: 'featured', listing_id: id },
          { product: 'featured', listing_id: id, colour: 'red' },
        ],
      },
      'items[1].colour',
      /not a known field/,
    );
    await expect400({ items: [{ product: 'featured', listing_id: id }], billing_country: 'DEU' }, 'billing_country');
    await expect400({ items: [{ product: 'featured', listing_id: id }], billing_country: 'ZZ' }, 'billing_country', /not a known/);
    await expect400({ items: [{ product: 'featured', listing_id: id }], vat_number: 'X'.repeat(33) }, 'vat_number');
    await expect400({ items: [{ product: 'featured' }] }, 'items[0].listing_id', /required/);
    await expect400({ items: [{ product: 'featured', listing_id: 0 }] }, 'items[0].listing_id');
  });

  test('product: unknown or inactive codes', async () => {
    const id = await listing();
    await expect400({ items: [{ product: 'gold', listing_id: id }] }, 'items[0].product', /not a product code/);
    await env.app.sql`update products set active = false where code = 'relaunch'`;
    try {
      await expect400(
        {
          items: [
            { product: 'featured', listing_id: id },
            { product: 'relaunch', listing_id: id, week: (await weeks())[0] },
          ],
        },
        'items[1].product',
      );
    } finally {
      await env.app.sql`update products set active = true where code = 'relaunch'`;
    }
  });

  test("listing_id: unknown and another account's listing are the same 404", async () => {
    const theirs = await listing({ owner: 'other' });
    const unknown = await quote({ items: [{ product: 'featured', listing_id: 99999999 }] });
    const foreign = await quote({ items: [{ product: 'featured', listing_id: theirs }] });
    expect(unknown.status).toBe(404);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe(unknown.body.code);
    expect((await quote({ items: [{ product: 'featured', listing_id: theirs }] }, 'other')).status).toBe(200);
  });

  test('week: a Monday from the list; required for skip_queue and relaunch; refused where not taken; full weeks', async () => {
    const ws = await weeks();
    const draft = await listing();
    const queued = await listing({ status: 'awaiting_badge', launch_week: ws[7] });
    const live = await listing({ status: 'live' });
    await expect400({ items: [{ product: 'launch', listing_id: draft, week: '2020-01-06' }] }, 'items[0].week', /weeks list_products shows/);
    const tuesday = new Date(`${ws[0]}T00:00:00Z`);
    tuesday.setUTCDate(tuesday.getUTCDate() + 1);
    await expect400({ items: [{ product: 'launch', listing_id: draft, week: tuesday.toISOString().slice(0, 10) }] }, 'items[0].week');
    await expect400({ items: [{ product: 'launch', listing_id: draft, week: '2026-02-30' }] }, 'items[0].week');
    await expect400({ items: [{ product: 'skip_queue', listing_id: queued }] }, 'items[0].week', /required/);
    await expect400({ items: [{ product: 'relaunch', listing_id: live }] }, 'items[0].week', /required/);
    await expect400({ items: [{ product: 'featured', listing_id: draft, week: ws[0] }] }, 'items[0].week', /not accepted/);
    expect((await quote({ items: [{ product: 'launch', listing_id: draft }] })).status).toBe(200);
    expect((await quote({ items: [{ product: 'launch', listing_id: draft, week: ws[2] }] })).status).toBe(200);

    // A week with no free slot.
    await env.app.sql`update sites set launch_slots_per_week = 2 where id = ${env.app.siteId}`;
    try {
      await listing({ status: 'scheduled', plan: 'paid', launch_week: ws[3] });
      await listing({ status: 'scheduled', plan: 'paid', launch_week: ws[3] });
      await expect400({ items: [{ product: 'launch', listing_id: draft, week: ws[3] }] }, 'items[0].week', /is full/, 'launch_week_full');
      // A listing already holding a slot in that week keeps it: upgrading it into the same week is fine.
      const holder = (await env.app.sql`select id::int from listings where launch_week = ${ws[3]} and plan = 'paid' limit 1`)[0].id;
      await env.app.sql`update listings set plan = 'free' where id = ${holder}`;
      expect((await quote({ items: [{ product: 'launch', listing_id: holder, week: ws[3] }] })).status).toBe(200);
      await env.app.sql`update listings set plan = 'paid' where id = ${holder}`;
      // Items of the same order count too.
      await listing({ status: 'scheduled', plan: 'paid', launch_week: ws[4] });
      const other = await listing();
      await expect400(
        {
          items: [
            { product: 'launch', listing_id: draft, week: ws[4] },
            { product: 'launch', listing_id: other, week: ws[4] },
          ],
        },
        'items[1].week',
        /is full/,
      );
    } finally {
      await env.app.sql`update sites set launch_slots_per_week = 20 where id = ${env.app.siteId}`;
    }
  });

  test('launch: not for a launched listing or one already on the paid plan', async () => {
    const live = await listing({ status: 'live' });
    const paid = await listing({ status: 'scheduled', plan: 'paid', launch_week: (await weeks())[1] });
    await expect400({ items: [{ product: 'launch', listing_id: live }] }, 'items[0].listing_id', /already launched/);
    // Already on the paid plan: a second launch would do nothing.
    const again = await quote({ items: [{ product: 'launch_bundle', listing_id: paid }] });
    expect([again.status, again.body.code]).toEqual([409, 'product_already_applied']);
    // A free listing waiting in the queue may upgrade to a paid launch.
    const queued = await listing({ status: 'scheduled', launch_week: (await weeks())[7] });
    expect((await quote({ items: [{ product: 'launch', listing_id: queued }] })).status).toBe(200);
  });

  test('skip_queue: only a free listing waiting in the queue; on a paid listing it is a contradiction', async () => {
    const ws = await weeks();
    const draft = await listing();
    const paid = await listing({ status: 'scheduled', plan: 'paid', launch_week: ws[1] });
    const waiting = await listing({ status: 'awaiting_badge', launch_week: ws[7] });
    const scheduled = await listing({ status: 'scheduled', launch_week: ws[6] });
    await expect400({ items: [{ product: 'skip_queue', listing_id: draft, week: ws[0] }] }, 'items[0].listing_id', /waiting in the queue/);
    await expect400({ items: [{ product: 'skip_queue', listing_id: paid, week: ws[0] }] }, 'items[0].listing_id', /free listings only/, 'contradictory_order');
    expect((await quote({ items: [{ product: 'skip_queue', listing_id: waiting, week: ws[0] }] })).status).toBe(200);
    expect((await quote({ items: [{ product: 'skip_queue', listing_id: scheduled, week: ws[1] }] })).status).toBe(200);
  });

  test('relaunch: only for a listing that has launched', async () => {
    const ws = await weeks();
    await expect400({ items: [{ product: 'relaunch', listing_id: await listing(), week: ws[0] }] }, 'items[0].listing_id', /has launched/);
    expect((await quote({ items: [{ product: 'relaunch', listing_id: await listing({ status: 'live' }), week: ws[0] }] })).status).toBe(200);
  });

  test('contradictory carts say why: two launches for one listing, launch plus skip_queue', async () => {
    const ws = await weeks();
    const draft = await listing();
    const res = await expect400(
      {
        items: [
          { product: 'launch', listing_id: draft },
          { product: 'launch', listing_id: draft, week: ws[1] },
        ],
      },
      'items[1].product',
      /only one of/,
      'contradictory_order',
    );
    expect(res.body.detail ?? res.body.title).toBeTruthy();
    const queued = await listing({ status: 'awaiting_badge', launch_week: ws[7] });
    await expect400(
      {
        items: [
          { product: 'launch', listing_id: queued },
          { product: 'skip_queue', listing_id: queued, week: ws[0] },
        ],
      },
      'items[1].product',
      /contradicts items\.0/,
      'contradictory_order',
    );
  });

  test('extra_categories: 1-3 slugs that exist, not the primary, not repeated, at most 3 extras in all', async () => {
    const id = await listing({ primary: 'developer-tools', extras: ['apis'] });
    await expect400({ items: [{ product: 'extra_categories', listing_id: id }] }, 'items[0].categories', /required/);
    await expect400({ items: [{ product: 'extra_categories', listing_id: id, categories: [] }] }, 'items[0].categories');
    await expect400(
      { items: [{ product: 'extra_categories', listing_id: id, categories: ['databases', 'ci-cd', 'monitoring', 'ai-agents'] }] },
      'items[0].categories',
      /at most 3/,
    );
    await expect400(
      { items: [{ product: 'extra_categories', listing_id: id, categories: ['no-such-category'] }] },
      'items[0].categories[0]',
      /not a category slug/,
    );
    await expect400(
      { items: [{ product: 'extra_categories', listing_id: id, categories: ['databases', 'developer-tools'] }] },
      'items[0].categories[1]',
      /primary/,
    );
    await expect400({ items: [{ product: 'extra_categories', listing_id: id, categories: ['apis'] }] }, 'items[0].categories[0]', /already/);
    await expect400({ items: [{ product: 'extra_categories', listing_id: id, categories: ['databases', 'databases'] }] }, 'items[0].categories', /repeat/);
    await expect400(
      { items: [{ product: 'extra_categories', listing_id: id, categories: ['databases', 'ci-cd', 'monitoring'] }] },
      'items[0].categories',
      /at most 3 \(it has 1\)/,
    );
    await expect400(
      {
        items: [
          { product: 'extra_categories', listing_id: id, categories: ['databases'] },
          { product: 'extra_categories', listing_id: id, categories: ['databases'] },
        ],
      },
      'items[1].categories[0]',
      /twice/,
      'contradictory_order',
    );
    await expect400({ items: [{ product: 'featured', listing_id: id, categories: ['databases'] }] }, 'items[0].categories', /only accepted/);
    expect((await quote({ items: [{ product: 'extra_categories', listing_id: id, categories: ['databases', 'ci-cd'] }] })).status).toBe(200);
  });

  test('billboard_min: amount_cents required and at least the minimum; refused elsewhere', async () => {
    const id = await listing({ status: 'live' });
    await expect400({ items: [{ product: 'billboard_min', listing_id: id }] }, 'items[0].amount_cents', /required/);
    await expect400({ items: [{ product: 'billboard_min', listing_id: id, amount_cents: 999 }] }, 'items[0].amount_cents', /at least 1000/);
    await expect400({ items: [{ product: 'billboard_min', listing_id: id, amount_cents: 100000001 }] }, 'items[0].amount_cents');
    await expect400({ items: [{ product: 'featured', listing_id: id, amount_cents: 5000 }] }, 'items[0].amount_cents', /only accepted/);
    const ok = await quote({ items: [{ product: 'billboard_min', listing_id: id, amount_cents: 1000 }] });
    expect(ok.body.lines[0].amount_cents).toBe(1000);
  });

  test("options: validated against the product's JSON Schema with ajv; refused on products without one", async () => {
    const id = await listing();
    await expect400({ items: [{ product: 'done_for_you', listing_id: id, options: { notes: 'x'.repeat(501) } }] }, 'items[0].options.notes', /500/);
    await expect400({ items: [{ product: 'done_for_you', listing_id: id, options: { note: 'typo' } }] }, 'items[0].options.note', /not a known field/);
    await expect400({ items: [{ product: 'ai_review', listing_id: id, options: { focus: 42 } }] }, 'items[0].options.focus', /string/);
    await expect400({ items: [{ product: 'featured', listing_id: id, options: { a: 1 } }] }, 'items[0].options', /takes no options/);
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i]));
    await expect400({ items: [{ product: 'done_for_you', listing_id: id, options: many }] }, 'items[0].options');
    expect((await quote({ items: [{ product: 'done_for_you', listing_id: id, options: { notes: 'Skip Product Hunt' } }] })).status).toBe(200);
  });

  test('access: 401 without a credential, 403 without orders:write', async () => {
    const id = await listing();
    const none = await env.app.json('/orders/quote', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ product: 'featured', listing_id: id }] }),
    });
    expect(none.status).toBe(401);
    expect((await quote({ items: [{ product: 'featured', listing_id: id }] }, 'reader')).status).toBe(403);
  });
});
