import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Sql } from '../../sql/db.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { makeCategory, makeListing, makeUser } from '../../test/builders.ts';

let app: TestApp;
const user = async (sql: Sql) => Number((await makeUser(sql)).id);

async function listing(sql: Sql, site: number, slug: string, o: Record<string, unknown> = {}) {
  const { status, ...columns } = o as { status?: string };
  return (await makeListing(sql, { siteId: site, slug, name: `Listing ${slug}`, status, columns })).id;
}

beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      const [other] = await sql`insert into sites (key, name, url) values ('other', 'Other', 'https://other.test') returning id`;
      const cat = async (slug: string, attributes: unknown[]) => (await makeCategory(sql, { slug, columns: { attributes: sql.json(attributes as never) } })).id;
      const crm = await cat('crm', [
        { key: 'seats', label: 'Seats' },
        { key: 'api', label: 'Public API' },
        { key: 'mobile', label: 'Mobile app' },
      ]);
      const helpdesk = await cat('helpdesk', [
        { key: 'api', label: 'API' },
        { key: 'sla', label: 'SLA' },
        { key: 'votes', label: 'Votes (attribute)' },
      ]);
      const a = await listing(sql, siteId, 'alpha', {
        primary_category_id: crm,
        attributes: sql.json({ seats: 10, api: true, mobile: '', sla: "ignored: not in alpha's category" } as never),
        pricing_model: 'freemium',
        country: 'US',
        founded_year: 2019,
        stage: 'beta',
      });
      const b = await listing(sql, siteId, 'beta', { primary_category_id: helpdesk, attributes: sql.json({ api: false, sla: '99.9%', seats: [] } as never) });
      await listing(sql, siteId, 'gamma'); // no category, no facts
      await listing(sql, siteId, 'draft-one', { status: 'draft', primary_category_id: crm });
      await listing(sql, other.id, 'elsewhere', { primary_category_id: crm });
      for (let i = 0; i < 3; i++) await sql`insert into votes (listing_id, user_id) values (${a}, ${await user(sql)})`;
      await sql`insert into reviews (listing_id, user_id, rating) values (${b}, ${await user(sql)}, 4), (${b}, ${await user(sql)}, 5)`;
      await sql`insert into reviews (listing_id, user_id, rating, flagged) values (${b}, ${await user(sql)}, 1, true)`;
    },
  });
}, 60_000);
afterAll(() => app?.stop(), 60_000);

describe('compare_listings', () => {
  test("rows: a's category attributes, then b's new ones, then the listing facts", async () => {
    const { status, body } = await app.json('/compare?a=alpha&b=beta');
    expect(status).toBe(200);
    expect(body.a).toMatchObject({ slug: 'alpha', name: 'Listing alpha', votes: 3, category: { slug: 'crm', name: 'crm' } });
    expect(body.b).toMatchObject({ slug: 'beta', url: 'https://beta.test', votes: 0 });
    expect(body.rows.map((r: any) => [r.key, r.label, r.source, r.a, r.b])).toEqual([
      ['seats', 'Seats', 'category', 10, null], // an empty list is no fact
      ['api', 'Public API', 'category', true, false], // the label of a's category wins
      ['mobile', 'Mobile app', 'category', null, null], // on neither listing: both cells empty
      ['sla', 'SLA', 'category', "ignored: not in alpha's category", '99.9%'],
      ['pricing_model', 'Pricing model', 'listing', 'freemium', null],
      ['country', 'Country', 'listing', 'US', null],
      ['founded_year', 'Founded', 'listing', 2019, null],
      ['stage', 'Stage', 'listing', 'beta', null],
      ['votes', 'Community votes', 'listing', 3, 0], // an attribute keyed like a fact is shown as the fact
      ['community_rating', 'Community rating (genuine reviews, 1-5)', 'listing', null, 4.5],
      ['community_rating_count', 'Genuine reviews', 'listing', 0, 2],
    ]);
  });

  test('swapping a and b swaps the cells and the attribute order', async () => {
    const { body } = await app.json('/compare?a=beta&b=alpha');
    expect(body.rows.slice(0, 5).map((r: any) => [r.key, r.a, r.b])).toEqual([
      ['api', false, true],
      ['sla', '99.9%', "ignored: not in alpha's category"],
      ['seats', null, 10],
      ['mobile', null, null],
      ['pricing_model', null, 'freemium'],
    ]);
    expect(body.rows.find((r: any) => r.key === 'api').label).toBe('API');
  });

  test('listings without a category still compare on the listing facts', async () => {
    const { status, body } = await app.json('/compare?a=gamma&b=alpha');
    expect(status).toBe(200);
    expect(body.rows[0]).toMatchObject({ key: 'seats', a: null, b: 10 });
    expect(body.rows.find((r: any) => r.key === 'votes')).toMatchObject({ source: 'listing', a: 0, b: 3 });
  });

  test('404 names the listing that is not a live listing of this site', async () => {
    for (const [qs, named] of [
      ['a=nope&b=alpha', '"nope" (a)'],
      ['a=alpha&b=draft-one', '"draft-one" (b)'],
      ['a=elsewhere&b=alpha', '"elsewhere" (a)'],
    ]) {
      const { status, body } = await app.json(`/compare?${qs}`);
      expect(status).toBe(404);
      expect(body.detail).toContain(named);
    }
    const { body } = await app.json('/compare?a=nope&b=gone');
    expect(body.detail).toContain('"nope" (a)');
    expect(body.detail).toContain('"gone" (b)');
  });

  test('400 when a equals b, a slug is missing or malformed, or a parameter is unknown', async () => {
    const same = await app.json('/compare?a=alpha&b=alpha');
    expect(same.status).toBe(400);
    expect(same.body.errors.map((e: any) => e.field)).toEqual(['b']);
    for (const [qs, field] of [
      ['b=alpha', 'a'],
      ['a=alpha', 'b'],
      ['a=Alpha&b=beta', 'a'],
      [`a=alpha&b=${'x'.repeat(221)}`, 'b'],
      ['a=alpha&b=beta&c=1', 'c'],
    ]) {
      const { status, body } = await app.json(`/compare?${qs}`);
      expect(status).toBe(400);
      expect(body.errors.map((e: any) => e.field)).toContain(field);
    }
  });
});
