import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Sql } from '../../sql/db.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { conforms } from '../../test/conforms.ts';
import { launchesOperations } from './launches.ts';
import { makeCompany, makeListing, makeUsers, makeVote } from '../../test/builders.ts';

// Times relative to the real clock: the service computes weeks against now(), UTC.
const DAY = 86_400_000;
const NOW = Date.now();
const today = new Date(NOW);
const CUR = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - ((today.getUTCDay() + 6) % 7) * DAY;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const W = (n: number) => CUR + n * 7 * DAY;
const times = (n: number, at: number) => Array<number>(n).fill(at);

interface Fx {
  slug: string;
  name?: string;
  status: string;
  week: number | null;
  launched: number | null;
  votes: number[];
  views?: number;
  follows?: number;
  other?: boolean;
}
// Insertion order is id order; ties in the service break by id.
const FX: Fx[] = [
  // This week: alpha has the most votes in total, but most were cast before its launch week.
  { slug: 'alpha', status: 'live', week: W(0), launched: W(0), votes: [...times(2, NOW), ...times(5, W(0) - 10 * DAY)], views: 50, follows: 1 },
  { slug: 'bravo', status: 'live', week: W(0), launched: Math.min(W(0) + 60_000, NOW), votes: times(3, NOW), views: 10, follows: 4 },
  { slug: 'charlie', status: 'live', week: W(0), launched: Math.max(W(0), NOW - 1000), votes: times(4, NOW), views: 30 },
  { slug: 'delta', status: 'live', week: W(0), launched: Math.max(W(0), NOW - 2000), votes: times(1, NOW), follows: 2 },
  // Last week: foxtrot got most of its votes after the week ended, so echo wins the week.
  { slug: 'echo', status: 'live', week: W(-1), launched: W(-1), votes: times(3, W(-1) + DAY), views: 5 },
  { slug: 'foxtrot', status: 'live', week: W(-1), launched: W(-1) + 3_600_000, votes: [W(-1) + 2 * DAY, ...times(5, NOW)] },
  { slug: 'golf', status: 'live', week: W(-1), launched: W(-1) + 7_200_000, votes: [] },
  // Equal vote counts; india's are recent, juliet's old (juliet has the lower id).
  { slug: 'juliet', status: 'live', week: W(-3), launched: W(-3) + 3_600_000, votes: times(2, NOW - 20 * DAY) },
  { slug: 'india', status: 'live', week: W(-3), launched: W(-3), votes: times(2, NOW - 3_600_000) },
  // Scheduled: next week (zulu before mike by id, after by name) and the week after.
  { slug: 'zulu', name: 'Zulu', status: 'scheduled', week: W(1), launched: null, votes: [] },
  { slug: 'mike', name: 'Mike', status: 'scheduled', week: W(1), launched: null, votes: [] },
  { slug: 'kilo', name: 'Kilo', status: 'scheduled', week: W(2), launched: null, votes: [] },
  // Never shown: a draft, and another site's live listing.
  { slug: 'papa', status: 'draft', week: W(0), launched: W(0), votes: times(8, NOW) },
  { slug: 'oscar', status: 'live', week: W(0), launched: Math.max(W(0), NOW - 500), votes: times(9, NOW), views: 99, follows: 9, other: true },
];

async function insertFixtures(sql: Sql, siteId: number) {
  const [other] = await sql`insert into sites (key, name, url) values ('other', 'Other', 'https://other.test') returning id`;
  const users = await makeUsers(sql, 12, (g) => `u${g}@x.test`);
  await sql`update sites set first_launch_week = ${iso(W(-10))}::date where id = ${siteId}`;
  for (const f of FX) {
    const c = await makeCompany(sql, { name: f.slug, domain: `${f.slug}.test` });
    const l = await makeListing(sql, {
      siteId: f.other ? other.id : siteId,
      companyId: c.id,
      slug: f.slug,
      name: f.name ?? f.slug,
      status: f.status,
      columns: { launch_week: f.week === null ? null : iso(f.week), launched_at: f.launched === null ? null : new Date(f.launched) },
    });
    for (const [i, at] of f.votes.entries()) await makeVote(sql, l.id, users[i].id, new Date(at));
    for (let i = 0; i < (f.follows ?? 0); i++) await sql`insert into follows (listing_id, user_id) values (${l.id}, ${users[i].id})`;
    if (f.views) await sql`insert into listing_views (listing_id, day, views) values (${l.id}, current_date, ${f.views})`;
  }
  await sql`select refresh_directory_views()`;
  await sql`select award_week(${siteId}, ${iso(W(-1))}::date)`;
}

// Expected orders, computed from the fixture definitions rather than from the service.
const idx = (f: Fx) => FX.indexOf(f);
const shown = FX.filter((f) => !f.other && f.status === 'live');
const weekVotes = (f: Fx, week: number) => f.votes.filter((t) => t >= week && t < week + 7 * DAY).length;
const trending = (f: Fx) => f.votes.reduce((s, t) => s + Math.exp((-Math.LN2 * (NOW - t)) / (3 * DAY)), 0);
const by =
  (...keys: ((f: Fx) => number)[]) =>
  (a: Fx, b: Fx) => {
    for (const k of keys) {
      const d = k(a) - k(b);
      if (d !== 0) return d;
    }
    return 0;
  };
const weekOrder = (week: number) =>
  shown
    .filter((f) => f.week === week)
    .sort(
      by(
        (f) => -weekVotes(f, week),
        (f) => f.launched!,
        idx,
      ),
    )
    .map((f) => f.slug);
const slugs = (body: any) => body.items.map((i: any) => i.slug ?? i.listing.slug);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ socket: false, prepare: insertFixtures });
}, 120_000);
afterAll(() => app?.stop(), 60_000);

describe('get_launch_week', () => {
  test('this week: live launches ranked by votes cast during the week', async () => {
    const { status, body } = await app.json('/launches/weeks/this');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      week: iso(W(0)),
      week_end: iso(W(0) + 6 * DAY),
      label: 'this',
      is_future: false,
      total: 4,
      page: 1,
      per_page: 20,
      has_more: false,
    });
    expect(slugs(body)).toEqual(weekOrder(W(0)));
    expect(slugs(body)).toEqual(['charlie', 'bravo', 'alpha', 'delta']);
    expect(body.items.map((i: any) => [i.rank, i.votes])).toEqual([
      [1, 4],
      [2, 3],
      [3, 2],
      [4, 1],
    ]);
    expect(body.items[2].listing.votes).toBe(7); // alpha's all-time votes, most cast before the week
    expect(body.items.every((i: any) => !('award' in i))).toBe(true);
  });

  test('last week counts only votes inside the week and marks the awards', async () => {
    const { body } = await app.json('/launches/weeks/last');
    expect(body).toMatchObject({ week: iso(W(-1)), week_end: iso(W(-1) + 6 * DAY), label: 'last', is_future: false });
    expect(slugs(body)).toEqual(['echo', 'foxtrot', 'golf']);
    expect(body.items.map((i: any) => [i.rank, i.votes, i.award])).toEqual([
      [1, 3, 1],
      [2, 1, 2],
      [3, 0, undefined],
    ]);
    expect(body.items[1].listing.votes).toBe(6);
  });

  test('a date is snapped to its Monday', async () => {
    for (const day of [0, 2, 6]) {
      const { status, body } = await app.json(`/launches/weeks/${iso(W(-1) + day * DAY)}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ week: iso(W(-1)), label: 'last' });
      expect(slugs(body)).toEqual(['echo', 'foxtrot', 'golf']);
    }
    const { body } = await app.json(`/launches/weeks/${iso(W(-3) + 2 * DAY)}`);
    expect(body).toMatchObject({ week: iso(W(-3)), label: null, is_future: false });
    expect(new Date(`${body.week}T00:00:00Z`).getUTCDay()).toBe(1);
  });

  test('future weeks list the scheduled launches, unranked', async () => {
    const next = await app.json('/launches/weeks/next');
    expect(next.body).toMatchObject({ week: iso(W(1)), week_end: iso(W(1) + 6 * DAY), label: 'next', is_future: true, total: 2 });
    expect(slugs(next.body)).toEqual(['mike', 'zulu']);
    expect(next.body.items.every((i: any) => i.rank === null && i.votes === null && i.listing.status === 'scheduled')).toBe(true);
    const later = await app.json(`/launches/weeks/${iso(W(2) + 3 * DAY)}`);
    expect(later.body).toMatchObject({ week: iso(W(2)), label: null, is_future: true });
    expect(slugs(later.body)).toEqual(['kilo']);
  });

  test('weeks outside the calendar are 404', async () => {
    expect((await app.get(`/launches/weeks/${iso(W(-11))}`)).status).toBe(404);
    expect((await app.get(`/launches/weeks/${iso(W(-10) - DAY)}`)).status).toBe(404);
    expect((await app.json(`/launches/weeks/${iso(W(-10))}`)).body).toMatchObject({ week: iso(W(-10)), items: [], total: 0 });
    expect((await app.get(`/launches/weeks/${iso(W(52) + 6 * DAY)}`)).status).toBe(200);
    const far = await app.get(`/launches/weeks/${iso(W(53))}`);
    expect(far.status).toBe(404);
    expect(far.headers.get('content-type')).toBe('application/problem+json');
    expect((await app.get('/launches/weeks/2024-02-29')).status).toBe(404); // a real date, long before the calendar
  });

  test('dates that do not exist and other strings are 400 naming week', async () => {
    for (const bad of ['2026-02-30', '2025-02-29', '2026-13-01', '2026-00-10', '2026-04-31', '0000-01-01', 'someday', '2026-1-1', 'This', '2026-01-011']) {
      const res = await app.get(`/launches/weeks/${bad}`);
      expect(res.status).toBe(400);
      const p = await res.json();
      expect(p.errors.map((e: any) => e.field)).toEqual(['week']);
    }
  });

  test('pages keep the weekly rank', async () => {
    const p2 = await app.json('/launches/weeks/this?page=2&per_page=2');
    expect(p2.body).toMatchObject({ page: 2, per_page: 2, total: 4, has_more: false });
    expect(p2.body.items.map((i: any) => [i.listing.slug, i.rank])).toEqual([
      ['alpha', 3],
      ['delta', 4],
    ]);
    expect((await app.json('/launches/weeks/this?per_page=2')).body.has_more).toBe(true);
    const beyond = await app.json('/launches/weeks/this?page=1000&per_page=100');
    expect(beyond.body).toMatchObject({ items: [], total: 4, has_more: false });
    for (const q of ['page=0', 'page=1001', 'per_page=0', 'per_page=101', 'page=x', 'sort=votes']) {
      expect((await app.get(`/launches/weeks/this?${q}`)).status).toBe(400);
    }
  });
});

describe('list_launches', () => {
  const section = async (name: string, q = '') => {
    const { status, body } = await app.json(`/launches?section=${name}${q}`);
    expect(status).toBe(200);
    expect(body.section).toBe(name);
    return body;
  };
  const metric = (body: any) => body.items.map((i: any) => i.metric.value);

  test('defaults to this-week, ranked like get_launch_week', async () => {
    const { body } = await app.json('/launches');
    expect(body.section).toBe('this-week');
    expect(slugs(body)).toEqual(weekOrder(W(0)));
    expect(body.items.map((i: any) => [i.rank, i.metric.name, i.metric.value])).toEqual([
      [1, 'week_votes', 4],
      [2, 'week_votes', 3],
      [3, 'week_votes', 2],
      [4, 'week_votes', 1],
    ]);
    const week = await app.json('/launches/weeks/this');
    expect(slugs(await section('this-week'))).toEqual(slugs(week.body));
  });

  test('items are listing summaries with name, url and votes', async () => {
    const { body } = await app.json('/launches?section=most-voted&per_page=1');
    expect(body.items[0]).toMatchObject({
      slug: 'alpha',
      name: 'alpha',
      url: 'https://alpha.test',
      votes: 7,
      status: 'live',
      profile_url: `${app.url}/listings/alpha`,
    });
  });

  test('today: live listings launched today (UTC), most votes first', async () => {
    const day = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
    const expected = shown
      .filter((f) => f.launched! >= day && f.launched! < day + DAY)
      .sort(
        by(
          (f) => -f.votes.length,
          (f) => f.launched!,
          idx,
        ),
      );
    const body = await section('today');
    expect(slugs(body)).toEqual(expected.map((f) => f.slug));
    expect(slugs(body)).toContain('charlie');
    expect(metric(body)).toEqual(expected.map((f) => f.votes.length));
  });

  test('trending prefers recent votes over older ones with equal counts', async () => {
    const body = await section('trending');
    const expected = [...shown]
      .sort(
        by(
          (f) => -trending(f),
          (f) => -f.votes.length,
          idx,
        ),
      )
      .map((f) => f.slug);
    expect(slugs(body)).toEqual(expected);
    const s = slugs(body);
    expect(s.indexOf('india')).toBeLessThan(s.indexOf('juliet'));
    const values = metric(body);
    expect(values).toEqual([...values].sort((a: number, b: number) => b - a));
    expect(body.items[0].metric.name).toBe('trending_score');
  });

  test('most-voted, most-viewed and most-followed order by their counters', async () => {
    const cases: [string, string, (f: Fx) => number][] = [
      ['most-voted', 'votes', (f) => f.votes.length],
      ['most-viewed', 'views', (f) => f.views ?? 0],
      ['most-followed', 'follows', (f) => f.follows ?? 0],
    ];
    for (const [name, metricName, count] of cases) {
      const body = await section(name, '&per_page=100');
      const expected = [...shown].sort(by((f) => -count(f), idx));
      expect(slugs(body)).toEqual(expected.map((f) => f.slug));
      expect(metric(body)).toEqual(expected.map(count));
      expect(body.items.every((i: any) => i.metric.name === metricName && i.metric.value === i[metricName])).toBe(true);
      expect(body.total).toBe(shown.length);
    }
  });

  test('recent: newest launch first', async () => {
    const body = await section('recent');
    const expected = [...shown].sort(
      by(
        (f) => -f.launched!,
        (f) => -idx(f),
      ),
    );
    expect(slugs(body)).toEqual(expected.map((f) => f.slug));
    expect(metric(body)).toEqual(expected.map((f) => new Date(f.launched!).toISOString().replace(/\.\d{3}Z$/, 'Z')));
  });

  test('upcoming: scheduled listings, soonest week first, then name', async () => {
    const body = await section('upcoming');
    expect(slugs(body)).toEqual(['mike', 'zulu', 'kilo']);
    expect(body.items.map((i: any) => [i.rank, i.metric.name, i.metric.value])).toEqual([
      [1, 'launch_week', iso(W(1))],
      [2, 'launch_week', iso(W(1))],
      [3, 'launch_week', iso(W(2))],
    ]);
  });

  test('paging, bounds and a bad section', async () => {
    const all = slugs(await section('most-voted'));
    const p2 = await section('most-voted', '&page=2&per_page=3');
    expect(slugs(p2)).toEqual(all.slice(3, 6));
    expect(p2.items.map((i: any) => i.rank)).toEqual([4, 5, 6]);
    expect(p2).toMatchObject({ page: 2, per_page: 3, total: shown.length, has_more: true });
    const last = await section('most-voted', '&page=3&per_page=3');
    expect(last.has_more).toBe(false);
    expect((await section('most-voted', '&page=4&per_page=3')).items).toEqual([]);
    for (const q of ['section=hot', 'section=', 'page=0', 'page=1001', 'per_page=0', 'per_page=101', 'week=this']) {
      const res = await app.get(`/launches?${q}`);
      expect(res.status).toBe(400);
    }
    const res = await app.json('/launches?section=hot');
    expect(res.body.errors[0].field).toBe('section');
  });

  test('responses match the declared output schema', async () => {
    const [week, list] = launchesOperations;
    for (const w of ['this', 'last', 'next']) conforms(week.output, (await app.json(`/launches/weeks/${w}`)).body);
    for (const s of ['today', 'this-week', 'trending', 'most-voted', 'recent', 'most-viewed', 'most-followed', 'upcoming']) {
      conforms(list.output, (await app.json(`/launches?section=${s}`)).body);
    }
  });
});

// Runs last: it changes a listing and refreshes the views. Each read uses a per_page not asked for
// before, so the edge's short cache cannot answer it.
describe('a listing hidden since the last view refresh', () => {
  test('leaves the week and every list at once; totals follow at the next refresh', async () => {
    const setStatus = (status: string) => app.sql`update listings set status = ${status} where site_id = ${app.siteId} and slug = 'charlie'`;
    const read = async (path: string) => (await app.json(path)).body;
    expect(weekOrder(W(0))[0]).toBe('charlie');
    await setStatus('draft');
    try {
      // The week walks its ranking past charlie: the others keep their weekly ranks, pages count live rows.
      const p1 = await read('/launches/weeks/this?per_page=7');
      expect(p1.items.map((i: any) => [i.listing.slug, i.rank])).toEqual([
        ['bravo', 2],
        ['alpha', 3],
        ['delta', 4],
      ]);
      expect(p1.total).toBe(4); // counted at the last refresh
      const p2 = await read('/launches/weeks/this?per_page=1&page=2');
      expect(p2.items.map((i: any) => [i.listing.slug, i.rank])).toEqual([['alpha', 3]]);
      expect((await read('/launches?section=this-week&per_page=7')).items.map((i: any) => [i.slug, i.rank])).toEqual([
        ['bravo', 2],
        ['alpha', 3],
        ['delta', 4],
      ]);
      // Sections number the live listings they show.
      const live = shown.filter((f) => f.slug !== 'charlie');
      const cases: [string, ((f: Fx) => number)[]][] = [
        ['most-voted', [(f) => -f.votes.length, idx]],
        ['most-viewed', [(f) => -(f.views ?? 0), idx]],
        ['trending', [(f) => -trending(f), (f) => -f.votes.length, idx]],
      ];
      for (const [name, keys] of cases) {
        const body = await read(`/launches?section=${name}&per_page=7`);
        expect(slugs(body)).toEqual(
          [...live]
            .sort(by(...keys))
            .slice(0, 7)
            .map((f) => f.slug),
        );
        expect(body.items.map((i: any) => i.rank)).toEqual([1, 2, 3, 4, 5, 6, 7]);
        expect(body).toMatchObject({ total: shown.length, has_more: true });
      }
      const recent = await read('/launches?section=recent&per_page=7');
      expect(slugs(recent)).not.toContain('charlie');
      expect(slugs(recent)).toEqual(
        [...live]
          .sort(
            by(
              (f) => -f.launched!,
              (f) => -idx(f),
            ),
          )
          .slice(0, 7)
          .map((f) => f.slug),
      );
      expect(slugs(await read('/launches?section=today&per_page=7'))).not.toContain('charlie');

      await app.sql`select refresh_directory_views()`;
      const week = await read('/launches/weeks/this?per_page=8');
      expect(week.items.map((i: any) => [i.listing.slug, i.rank, i.votes])).toEqual([
        ['bravo', 1, 3],
        ['alpha', 2, 2],
        ['delta', 3, 1],
      ]);
      expect(week.total).toBe(3);
      expect((await read('/launches?section=most-voted&per_page=8')).total).toBe(live.length);
      expect((await read('/launches?section=recent&per_page=8')).total).toBe(live.length);
    } finally {
      await setStatus('live');
      await app.sql`select refresh_directory_views()`;
    }
  });
});
