import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Sql } from '../../sql/db.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { conforms } from '../../test/conforms.ts';
import { leaderboardsOperations } from './leaderboards.ts';
import { makeListing, makeUsers, makeVote } from '../../test/builders.ts';

const DAY = 86_400_000;
const NOW = Date.now();
const t = new Date(NOW);
const TODAY = Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());
const CUR = TODAY - ((t.getUTCDay() + 6) % 7) * DAY;
const W = (n: number) => CUR + n * 7 * DAY;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const LAST_MONTH = iso(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() - 1, 1));
const OLDER_MONTH = iso(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() - 3, 1));

interface Fx {
  slug: string;
  status?: string;
  week?: number;
  votes?: number[];
  other?: boolean;
  billboard?: number[];
  ratings?: [number, number][];
  revenue?: [string, number, boolean][];
}
const FX: Fx[] = [
  {
    slug: 'ann',
    week: W(0),
    votes: [NOW],
    billboard: [500, 700],
    ratings: [
      [0, 40],
      [30, 30],
    ],
    revenue: [
      [LAST_MONTH, 100000, true],
      [OLDER_MONTH, 999999, false],
    ],
  },
  { slug: 'ben', week: W(0), votes: [NOW, NOW, NOW], billboard: [5000], ratings: [[0, 70]], revenue: [[LAST_MONTH, 50000, false]] },
  // cat launched last week: 2 votes inside the week, 4 after it.
  {
    slug: 'cat',
    week: W(-1),
    votes: [W(-1) + DAY, W(-1) + 2 * DAY, NOW, NOW, NOW, NOW],
    ratings: [
      [1, 55],
      [10, 10],
      [40, 60],
    ],
  },
  { slug: 'dan' },
  // Not shown anywhere: a scheduled listing and another site's live one.
  { slug: 'eve', status: 'scheduled', week: W(1), billboard: [90000], ratings: [[0, 99]], revenue: [[LAST_MONTH, 9999999, true]] },
  { slug: 'zed', other: true, week: W(0), votes: [NOW, NOW, NOW, NOW, NOW], billboard: [80000], ratings: [[0, 98]], revenue: [[LAST_MONTH, 8888888, true]] },
];

async function insertFixtures(sql: Sql, siteId: number) {
  const [other] = await sql`insert into sites (key, name, url) values ('other', 'Other', 'https://other.test') returning id`;
  const users = await makeUsers(sql, 8, (g) => `u${g}@x.test`);
  await sql`update sites set first_launch_week = ${iso(W(-10))}::date where id = ${siteId}`;
  for (const f of FX) {
    const l = await makeListing(sql, {
      siteId: f.other ? other.id : siteId,
      slug: f.slug,
      status: f.status,
      columns: { launch_week: f.week === undefined ? null : iso(f.week), launched_at: f.week === undefined ? null : new Date(f.week) },
    });
    const c = { id: l.companyId };
    for (const [i, at] of (f.votes ?? []).entries()) await makeVote(sql, l.id, users[i].id, new Date(at));
    for (const cents of f.billboard ?? []) await sql`insert into billboard_contributions (listing_id, amount_cents) values (${l.id}, ${cents})`;
    for (const [daysAgo, rating] of f.ratings ?? []) {
      await sql`insert into domain_ratings (company_id, measured_on, rating) values (${c.id}, ${iso(TODAY - daysAgo * DAY)}::date, ${rating})`;
    }
    for (const [month, mrr, verified] of f.revenue ?? []) {
      await sql`insert into revenue_figures (company_id, month, mrr_cents, verified) values (${c.id}, ${month}::date, ${mrr}, ${verified})`;
    }
  }
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ socket: false, prepare: insertFixtures });
}, 120_000);
afterAll(() => app?.stop(), 60_000);

const board = async (path: string) => {
  const { status, body } = await app.json(`/leaderboards/${path}`);
  expect(status).toBe(200);
  return body;
};
const rows = (body: any) => body.items.map((i: any) => [i.rank, i.listing.slug, i.metric.value]);

describe('get_leaderboard', () => {
  test('community-weekly defaults to this week and counts votes cast during it', async () => {
    const body = await board('community-weekly');
    expect(body).toMatchObject({
      board: 'community-weekly',
      week: iso(W(0)),
      week_end: iso(W(0) + 6 * DAY),
      label: 'this',
      is_future: false,
      paid: false,
      total: 2,
    });
    expect(body.disclosure).toBeUndefined();
    expect(rows(body)).toEqual([
      [1, 'ben', 3],
      [2, 'ann', 1],
    ]);
    expect(body.items[0].metric.name).toBe('week_votes');
    expect(body.items[0].listing).toMatchObject({ name: 'ben', url: 'https://ben.test', votes: 3 });
  });

  test('community-weekly for last week or a date in it', async () => {
    for (const week of ['last', iso(W(-1) + 4 * DAY)]) {
      const body = await board(`community-weekly?week=${week}`);
      expect(body).toMatchObject({ week: iso(W(-1)), label: 'last' });
      expect(rows(body)).toEqual([[1, 'cat', 2]]);
      expect(body.items[0].listing.votes).toBe(6); // all-time votes include those after the week
    }
  });

  test('community-weekly: bad, unreal and out-of-calendar weeks', async () => {
    for (const bad of ['next', '2026-02-30', '2025-02-29', 'yesterday', '2026-01-011']) {
      const res = await app.json(`/leaderboards/community-weekly?week=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: any) => e.field)).toEqual(['week']);
    }
    expect((await app.get(`/leaderboards/community-weekly?week=${iso(W(-11))}`)).status).toBe(404);
    expect((await app.get(`/leaderboards/community-weekly?week=${iso(W(53))}`)).status).toBe(404);
    expect((await board(`community-weekly?week=${iso(W(-10))}`)).items).toEqual([]);
  });

  test('community-all-time ranks live listings with votes', async () => {
    const body = await board('community-all-time');
    expect(body).toMatchObject({ board: 'community-all-time', paid: false, total: 3 });
    expect(body.week).toBeUndefined();
    expect(rows(body)).toEqual([
      [1, 'cat', 6],
      [2, 'ben', 3],
      [3, 'ann', 1],
    ]);
    expect(body.items.every((i: any) => i.metric.name === 'votes' && i.paid === false)).toBe(true);
  });

  test('billboard is the paid ranking, marked paid everywhere', async () => {
    const body = await board('billboard');
    expect(body).toMatchObject({ board: 'billboard', paid: true, total: 2 });
    expect(body.disclosure).toMatch(/paid/i);
    expect(body.items.map((i: any) => [i.rank, i.listing.slug, i.metric])).toEqual([
      [1, 'ben', { name: 'amount_cents', value: 5000, currency: 'USD', contributions: 1 }],
      [2, 'ann', { name: 'amount_cents', value: 1200, currency: 'USD', contributions: 2 }],
    ]);
    expect(body.items.every((i: any) => i.paid === true && i.disclosure === body.disclosure)).toBe(true);
  });

  test('domain-rating: latest rating and its four-week trend', async () => {
    const body = await board('domain-rating');
    expect(body).toMatchObject({ board: 'domain-rating', paid: false });
    expect(body.items.map((i: any) => [i.rank, i.listing.slug, i.metric])).toEqual([
      [1, 'ben', { name: 'domain_rating', value: 70, trend: null, measured_on: iso(TODAY) }],
      [2, 'cat', { name: 'domain_rating', value: 55, trend: -5, measured_on: iso(TODAY - DAY) }],
      [3, 'ann', { name: 'domain_rating', value: 40, trend: 10, measured_on: iso(TODAY) }],
    ]);
  });

  test('revenue: latest month per company', async () => {
    const body = await board('revenue');
    expect(body.items.map((i: any) => [i.rank, i.listing.slug, i.metric])).toEqual([
      [1, 'ann', { name: 'mrr_cents', value: 100000, currency: 'USD', month: LAST_MONTH, verified: true, source: 'stripe', usd_cents: 100000 }],
      [2, 'ben', { name: 'mrr_cents', value: 50000, currency: 'USD', month: LAST_MONTH, verified: false, source: 'self_reported', usd_cents: 50000 }],
    ]);
  });

  test('every board describes itself', async () => {
    for (const b of ['community-weekly', 'community-all-time', 'billboard', 'domain-rating', 'revenue']) {
      const body = await board(b);
      expect(body.board).toBe(b);
      expect(body.title.length).toBeGreaterThan(0);
      expect(body.description.length).toBeGreaterThan(0);
      expect(body.items.map((i: any) => i.listing.slug)).not.toContain('zed');
      expect(body.items.map((i: any) => i.listing.slug)).not.toContain('eve');
    }
  });

  test('an unknown board is 404', async () => {
    for (const b of ['nope', 'Billboard', 'community']) {
      const res = await app.get(`/leaderboards/${b}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
  });

  test('week with any other board is 400 naming week', async () => {
    for (const b of ['community-all-time', 'billboard', 'domain-rating', 'revenue']) {
      const res = await app.json(`/leaderboards/${b}?week=this`);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'week', in: 'query', message: expect.any(String) }]);
    }
  });

  test('paging and bounds', async () => {
    const p2 = await board('community-all-time?page=2&per_page=2');
    expect(p2).toMatchObject({ page: 2, per_page: 2, total: 3, has_more: false });
    expect(rows(p2)).toEqual([[3, 'ann', 1]]);
    expect((await board('community-all-time?per_page=2')).has_more).toBe(true);
    expect((await board('billboard?page=1000&per_page=100')).items).toEqual([]);
    for (const q of ['page=0', 'page=1001', 'per_page=0', 'per_page=101', 'limit=5']) {
      expect((await app.get(`/leaderboards/community-all-time?${q}`)).status).toBe(400);
    }
  });

  test('responses match the declared output schema', async () => {
    for (const b of ['community-weekly', 'community-weekly?week=last', 'community-all-time', 'billboard', 'domain-rating', 'revenue']) {
      conforms(leaderboardsOperations[0].output, await board(b));
    }
  });
});

// Runs last: it changes a listing and refreshes the views. Each read uses a per_page not asked for
// before, so the edge's short cache cannot answer it.
describe('a listing hidden since the last view refresh', () => {
  test('leaves every board at once, the others keep their ranks; totals follow at the next refresh', async () => {
    const setStatus = (status: string) => app.sql`update listings set status = ${status} where site_id = ${app.siteId} and slug = 'ben'`;
    await setStatus('draft');
    try {
      // Pages count the live rows: page 2 of one is ann, ranked 3rd when the board was last refreshed.
      expect(rows(await board('community-all-time?per_page=5'))).toEqual([
        [1, 'cat', 6],
        [3, 'ann', 1],
      ]);
      expect(rows(await board('community-all-time?per_page=1&page=2'))).toEqual([[3, 'ann', 1]]);
      expect(await board('community-all-time?per_page=6')).toMatchObject({ total: 3 }); // counted at the last refresh
      expect(rows(await board('community-weekly?per_page=5'))).toEqual([[2, 'ann', 1]]);
      expect(rows(await board('billboard?per_page=5'))).toEqual([[2, 'ann', 1200]]);
      expect(rows(await board('domain-rating?per_page=5'))).toEqual([
        [2, 'cat', 55],
        [3, 'ann', 40],
      ]);
      expect(rows(await board('revenue?per_page=5'))).toEqual([[1, 'ann', 100000]]);

      await app.sql`select refresh_directory_views()`;
      const after = await board('community-all-time?per_page=7');
      expect(rows(after)).toEqual([
        [1, 'cat', 6],
        [2, 'ann', 1],
      ]);
      expect(after).toMatchObject({ total: 2, has_more: false });
      expect(await board('domain-rating?per_page=7')).toMatchObject({ total: 2 });
      expect(await board('community-weekly?per_page=7')).toMatchObject({ total: 1 });
      expect(await board('billboard?page=2&per_page=1')).toMatchObject({ items: [], total: 1, has_more: false });
    } finally {
      await setStatus('live');
      await app.sql`select refresh_directory_views()`;
    }
  });
});
