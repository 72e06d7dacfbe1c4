import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Sql } from '../../sql/db.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { conforms } from '../../test/conforms.ts';
import { awardsOperations } from './awards.ts';
import { makeCompany, makeListing, makeUsers, makeVote } from '../../test/builders.ts';

const DAY = 86_400_000;
const t = new Date();
const CUR = Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()) - ((t.getUTCDay() + 6) % 7) * DAY;
const W = (n: number) => CUR + n * 7 * DAY;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function insertFixtures(sql: Sql, siteId: number) {
  const [other] = await sql`insert into sites (key, name, url) values ('other', 'Other', 'https://other.test') returning id`;
  const users = await makeUsers(sql, 5, (g) => `u${g}@x.test`);
  const ids: Record<string, number> = {};
  // [slug, week, votes cast during the week, status, other site]
  const fx: [string, number, number, string, boolean][] = [
    ['a3', W(-1), 1, 'live', false],
    ['a1', W(-1), 3, 'live', false],
    ['a2', W(-1), 2, 'live', false],
    ['a4', W(-1), 0, 'live', false],
    ['b1', W(-2), 0, 'live', false],
    ['b2', W(-2), 0, 'live', false],
    ['c1', W(-3), 0, 'live', false],
    ['nn', W(-3), 0, 'live', false],
    ['dd', W(-3), 0, 'draft', false],
    ['xo', W(-1), 5, 'live', true],
  ];
  for (const [slug, week, votes, status, isOther] of fx) {
    const c = await makeCompany(sql, { name: slug, domain: `${slug}.test` });
    const l = await makeListing(sql, {
      siteId: isOther ? other.id : siteId,
      companyId: c.id,
      slug,
      name: slug.toUpperCase(),
      status,
      columns: { launch_week: iso(week), launched_at: new Date(week) },
    });
    ids[slug] = l.id;
    for (let i = 0; i < votes; i++) await makeVote(sql, l.id, users[i].id, new Date(week + DAY));
  }
  // Last week's awards come from the ranking itself; older weeks are inserted directly.
  await sql`select refresh_directory_views()`;
  await sql`select award_week(${siteId}, ${iso(W(-1))}::date)`;
  await sql`select award_week(${other.id}, ${iso(W(-1))}::date)`;
  await sql`insert into awards (site_id, listing_id, week, rank, votes) values
    (${siteId}, ${ids.b2}, ${iso(W(-2))}::date, 2, 4), (${siteId}, ${ids.b1}, ${iso(W(-2))}::date, 1, 5),
    (${siteId}, ${ids.c1}, ${iso(W(-3))}::date, 1, 7), (${siteId}, ${ids.dd}, ${iso(W(-3))}::date, 2, 6)`;
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ socket: false, prepare: insertFixtures });
}, 120_000);
afterAll(() => app?.stop(), 60_000);

const rows = (body: any) => body.items.map((i: any) => [i.week, i.rank, i.listing.slug, i.votes]);

describe('list_awards', () => {
  test('newest week first, then rank; only live listings of this site', async () => {
    const { status, body } = await app.json('/awards');
    expect(status).toBe(200);
    expect(rows(body)).toEqual([
      [iso(W(-1)), 1, 'a1', 3],
      [iso(W(-1)), 2, 'a2', 2],
      [iso(W(-1)), 3, 'a3', 1],
      [iso(W(-2)), 1, 'b1', 5],
      [iso(W(-2)), 2, 'b2', 4],
      [iso(W(-3)), 1, 'c1', 7],
    ]);
    expect(body).toMatchObject({ page: 1, per_page: 20, total: 6, has_more: false });
  });

  test('items carry the title, the week end and the listing summary', async () => {
    const { body } = await app.json('/awards?per_page=2');
    expect(body.items[0]).toMatchObject({
      title: 'Launch of the Week #1',
      week: iso(W(-1)),
      week_end: iso(W(-1) + 6 * DAY),
      listing: { slug: 'a1', name: 'A1', url: 'https://a1.test', votes: 3, status: 'live' },
    });
    expect(body.items[1].title).toBe('Launch of the Week #2');
  });

  test('the listing filter', async () => {
    expect(rows((await app.json('/awards?listing=a2')).body)).toEqual([[iso(W(-1)), 2, 'a2', 2]]);
    expect(rows((await app.json('/awards?listing=b1')).body)).toEqual([[iso(W(-2)), 1, 'b1', 5]]);
    const none = await app.json('/awards?listing=nn');
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ items: [], total: 0, has_more: false });
    expect((await app.json('/awards?listing=a4')).body.items).toEqual([]); // ranked fourth, no votes: no award
  });

  test('a slug that is no live listing here filters to an empty list', async () => {
    for (const slug of ['nope', 'dd', 'xo']) {
      // unknown, a draft with an award, another site's winner
      const res = await app.json(`/awards?listing=${slug}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ items: [], total: 0, has_more: false });
    }
  });

  test('a malformed slug is 400 naming listing', async () => {
    for (const slug of ['Bad_Slug', '-a', 'a'.repeat(221), '']) {
      const res = await app.json(`/awards?listing=${slug}`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe('listing');
    }
    expect((await app.get(`/awards?listing=${'a'.repeat(220)}`)).status).toBe(200); // longest valid slug
  });

  test('paging and bounds', async () => {
    const p2 = await app.json('/awards?page=2&per_page=2');
    expect(rows(p2.body)).toEqual([
      [iso(W(-1)), 3, 'a3', 1],
      [iso(W(-2)), 1, 'b1', 5],
    ]);
    expect(p2.body).toMatchObject({ page: 2, per_page: 2, total: 6, has_more: true });
    expect((await app.json('/awards?page=3&per_page=2')).body.has_more).toBe(false);
    expect((await app.json('/awards?page=1000&per_page=100')).body).toMatchObject({ items: [], total: 6 });
    for (const q of ['page=0', 'page=1001', 'per_page=0', 'per_page=101', 'week=last']) {
      expect((await app.get(`/awards?${q}`)).status).toBe(400);
    }
  });

  test('responses match the declared output schema', async () => {
    conforms(awardsOperations[0].output, (await app.json('/awards')).body);
    conforms(awardsOperations[0].output, (await app.json('/awards?listing=nope')).body);
  });
});
