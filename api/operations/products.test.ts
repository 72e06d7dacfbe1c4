import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eventually } from '../../test/eventually.ts';
import type { JSONValue } from 'postgres';
import { startTestApp, type TestApp } from '../../test/harness.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      const [other] = await sql`insert into sites (key, name, url) values ('other', 'Other', 'https://other.test') returning id`;
      const product = (code: string, position: number, o: { needsWeek?: boolean; needsListing?: boolean; active?: boolean; options?: JSONValue } = {}) =>
        sql`insert into products (code, name, description, position, needs_week, needs_listing, active, options)
            values (${code}, ${'Product ' + code}, ${'About ' + code}, ${position}, ${o.needsWeek ?? false}, ${o.needsListing ?? true},
                    ${o.active ?? true}, ${o.options ? sql.json(o.options) : null})`;
      await product('ai_review', 0, { active: false });
      await product('launch', 1);
      await product('skip_queue', 2, { needsWeek: true });
      await product('featured', 3, { options: { type: 'object', properties: { placement: { type: 'string', enum: ['home', 'category'] } } } });
      await product('extra_categories', 3);
      await product('billboard_min', 4);
      await product('relaunch', 5, { needsWeek: true });
      await product('done_for_you', 6, { needsListing: false });

      const price = (site: number, code: string, cents: number, validFrom: string, extra: { currency?: string; min?: number } = {}) =>
        sql`insert into product_prices (site_id, product_code, amount_cents, currency, min_amount_cents, valid_from)
            values (${site}, ${code}, ${cents}, ${extra.currency ?? 'USD'}, ${extra.min ?? null}, ${validFrom}::timestamptz)`;
      await price(siteId, 'ai_review', 900, '2024-01-01');
      await price(siteId, 'launch', 1000, '2024-01-01');
      await sql`insert into product_prices (site_id, product_code, amount_cents, valid_from) values (${siteId}, 'launch', 4900, now() - interval '1 day')`;
      await sql`insert into product_prices (site_id, product_code, amount_cents, valid_from) values (${siteId}, 'launch', 9900, now() + interval '1 day')`;
      await price(other.id, 'launch', 100, '2025-01-01');
      await price(siteId, 'skip_queue', 2900, '2024-01-01');
      await price(siteId, 'featured', 1900, '2024-01-01', { currency: 'EUR' });
      await price(siteId, 'extra_categories', 1500, '2024-01-01');
      await price(siteId, 'billboard_min', 500, '2024-01-01', { min: 500 });
      await price(siteId, 'relaunch', 3900, '2024-01-01');
      await price(other.id, 'done_for_you', 29900, '2024-01-01'); // priced only on another site
    },
  });
}, 60_000); // a loaded machine can take a while to boot the test database
afterAll(() => app?.stop(), 60_000);

/** The next `n` Mondays after this week's, as YYYY-MM-DD (UTC). */
function nextMondays(n: number): string[] {
  const now = new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const thisMonday = today - ((now.getUTCDay() + 6) % 7) * 86400000;
  return Array.from({ length: n }, (_, i) => new Date(thisMonday + (i + 1) * 7 * 86400000).toISOString().slice(0, 10));
}

async function launchPrice(expected: number) {
  await app.sql`select directory_changed()`; // what an admin price change does: drop cached reads
  return eventually(
    async () => (await app.json('/products')).body.items.find((p: any) => p.code === 'launch').price.amount_cents as number,
    (cents) => cents === expected,
    { tries: 100, everyMs: 20 },
  );
}

describe('list_products', () => {
  test('lists active products priced for this site, in position order', async () => {
    const { status, body } = await app.json('/products');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['items']);
    // ai_review is inactive; done_for_you has no price on this site
    expect(body.items.map((p: any) => p.code)).toEqual(['launch', 'skip_queue', 'extra_categories', 'featured', 'billboard_min', 'relaunch']);
    const by = Object.fromEntries(body.items.map((p: any) => [p.code, p]));
    expect(by.featured).toEqual({
      code: 'featured',
      name: 'Product featured',
      description: 'About featured',
      needs_listing: true,
      needs_week: false,
      price: { amount_cents: 1900, currency: 'EUR' },
      min_amount_cents: null,
      options: { type: 'object', properties: { placement: { type: 'string', enum: ['home', 'category'] } } },
      weeks: null,
    });
    expect(by.billboard_min).toMatchObject({ price: { amount_cents: 500, currency: 'USD' }, min_amount_cents: 500, options: null, weeks: null });
    expect(by.skip_queue).toMatchObject({ needs_week: true, price: { amount_cents: 2900, currency: 'USD' } });
  });

  test("uses the newest price already in effect, ignoring older, future and other sites' prices", async () => {
    const { body } = await app.json('/products');
    expect(body.items[0]).toMatchObject({ code: 'launch', price: { amount_cents: 4900, currency: 'USD' } });
  });

  test('launch, skip_queue and relaunch offer the next 12 Mondays from next week', async () => {
    const { body } = await app.json('/products');
    const expected = nextMondays(12);
    for (const code of ['launch', 'skip_queue', 'relaunch']) {
      const weeks = body.items.find((p: any) => p.code === code).weeks;
      expect(weeks).toEqual(expected);
      for (const w of weeks) expect(new Date(`${w}T00:00:00Z`).getUTCDay()).toBe(1);
    }
    expect(body.items.find((p: any) => p.code === 'extra_categories').weeks).toBeNull();
  });

  test('prices are read from the database: a changed or new price row shows up', async () => {
    await app.sql`update product_prices set amount_cents = 5900 where site_id = ${app.siteId} and product_code = 'launch' and amount_cents = 4900`;
    expect(await launchPrice(5900)).toBe(5900);
    await app.sql`insert into product_prices (site_id, product_code, amount_cents, currency, valid_from)
                  values (${app.siteId}, 'launch', 6900, 'USD', now())`;
    expect(await launchPrice(6900)).toBe(6900);
  });

  test('is public and takes no parameters', async () => {
    const res = await app.json('/products?site=other');
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ field: '(root)', in: 'query' });
  });
});
