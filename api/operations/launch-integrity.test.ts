import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { conforms } from '../../test/conforms.ts';
import { eventually } from '../../test/eventually.ts';
import { launchIntegrityOperations } from './launch-integrity.ts';

// get_launch_integrity: the public report of how a launch week's votes were cast, on REST, MCP,
// OpenAPI and the launch week page, cached like every public read.

const DAY = 86_400_000;
const now = new Date();
const MONDAY = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - ((now.getUTCDay() + 6) % 7) * DAY;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const LAST = iso(MONDAY - 7 * DAY);
const NEXT = iso(MONDAY + 7 * DAY);

let app: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      await sql`update sites set first_launch_week = ${LAST}::date - 70 where id = ${siteId}`;
      for (const [slug, status, week] of [
        ['steady', 'live', LAST],
        ['spiky', 'live', LAST],
        ['quiet', 'live', LAST],
        ['soon', 'scheduled', NEXT],
      ] as const) {
        const [co] = await sql`insert into companies (name, domain, website_url) values (${slug}, ${`${slug}.test`}, ${`https://${slug}.test`}) returning id`;
        const [l] = await sql`
          insert into listings (site_id, company_id, slug, name, url, domain, status, launch_week, launched_at)
          values (${siteId}, ${co.id}, ${slug}, ${slug}, ${`https://${slug}.test`}, ${`${slug}.test`}, ${status}, ${week}::date,
                  ${status === 'live' ? sql`${week}::timestamp at time zone 'utc' + interval '1 hour'` : null}) returning id`;
        ids[slug] = Number(l.id);
      }
      // steady: 7 votes from old accounts on 7 networks, 5 hours apart.
      await sql`insert into users (email, created_at) select 'old' || g || '@x.test', now() - interval '90 days' from generate_series(1, 8) g`;
      await sql`insert into votes (listing_id, user_id, created_at)
                select ${ids.steady}, u.id, ${LAST}::timestamp at time zone 'utc' + (g * 5) * interval '1 hour'
                from generate_series(1, 7) g join users u on u.email = 'old' || g || '@x.test'`;
      // spiky: 6 votes from accounts made that day, from one network, a minute apart; and 2 old ones.
      await sql`insert into users (email, created_at) select 'new' || g || '@x.test', ${LAST}::timestamp at time zone 'utc' + interval '1 day' from generate_series(1, 6) g`;
      await sql`insert into votes (listing_id, user_id, created_at)
                select ${ids.spiky}, u.id, ${LAST}::timestamp at time zone 'utc' + interval '1 day 2 hours' + g * interval '1 minute'
                from generate_series(1, 6) g join users u on u.email = 'new' || g || '@x.test'`;
      await sql`insert into votes (listing_id, user_id, created_at)
                select ${ids.spiky}, u.id, ${LAST}::timestamp at time zone 'utc' + interval '3 days' + g * interval '1 hour'
                from generate_series(1, 2) g join users u on u.email = 'old' || g || '@x.test'`;
      await sql`
        insert into vote_signals (vote_id, account_age, sign_in, network, ua_family, visited_before)
        select v.id, v.created_at - u.created_at, 'email_link',
               vote_network_hash(case when u.email like 'new%' then '192.0.2.0/24' else '10.0.' || u.id || '.0/24' end), 'firefox', u.email like 'old%'
        from votes v join users u on u.id = v.user_id`;
      // A vote from before signals were kept: counted, but in no share.
      const [legacy] = await sql`insert into users (email, created_at) values ('legacy@x.test', now() - interval '2 years') returning id`;
      await sql`insert into votes (listing_id, user_id, created_at) values (${ids.quiet}, ${legacy.id}, ${LAST}::timestamp at time zone 'utc' + interval '2 days')`;
      await sql`select refresh_listing_stats()`;
    },
  });
}, 120_000);
afterAll(() => app.stop());

type Item = Record<string, any> & { listing: { slug: string } };
const bySlug = (items: Item[]) => Object.fromEntries(items.map((i) => [i.listing.slug, i]));

describe('get_launch_integrity', () => {
  test('per launch: votes, new accounts, the largest network, bursts and discounts, in ranking order', async () => {
    const res = await app.json(`/launches/weeks/${LAST}/integrity`);
    expect(res.status).toBe(200);
    conforms(launchIntegrityOperations[0].output, res.body);
    expect(res.body).toMatchObject({ week: LAST, label: 'last', is_future: false, total: 3, page: 1, has_more: false });
    expect(res.body.items.map((i: Item) => [i.rank, i.listing.slug])).toEqual([
      [1, 'spiky'],
      [2, 'steady'],
      [3, 'quiet'],
    ]);
    const i = bySlug(res.body.items);
    expect(i.spiky).toMatchObject({
      votes: 8,
      counted_votes: 8,
      votes_with_signals: 8,
      new_account_votes: 6,
      new_account_share: 0.75,
      top_network_votes: 6,
      top_network_share: 0.75,
      burst_votes: 6,
      discounted_votes: 0,
      discounted: [],
      summary: '8 votes, 75% from new accounts',
    });
    expect(i.steady).toMatchObject({ votes: 7, new_account_votes: 0, top_network_votes: 1, top_network_share: 0.143, burst_votes: 0 });
    expect(i.quiet).toMatchObject({ votes: 1, votes_with_signals: 0, new_account_share: null, top_network_share: null, summary: '1 vote' });
  });

  test('the week forms of get_launch_week; a future week lists its scheduled launches with zeros; bad weeks are 400 and 404', async () => {
    expect((await app.json('/launches/weeks/last/integrity')).body.week).toBe(LAST);
    expect((await app.json(`/launches/weeks/${iso(Date.parse(LAST) + 3 * DAY)}/integrity`)).body.week).toBe(LAST);
    const next = (await app.json('/launches/weeks/next/integrity')).body;
    conforms(launchIntegrityOperations[0].output, next);
    expect(next.items).toEqual([
      expect.objectContaining({
        rank: null,
        votes: 0,
        counted_votes: 0,
        discounted: [],
        summary: '0 votes',
        listing: expect.objectContaining({ slug: 'soon' }),
      }),
    ]);
    const bad = await app.json('/launches/weeks/2026-02-30/integrity');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.errors)).toContain('week');
    expect((await app.json('/launches/weeks/2001-01-01/integrity')).status).toBe(404);
    expect((await app.json('/launches/weeks/someday/integrity')).status).toBe(400);
    expect((await app.json(`/launches/weeks/${LAST}/integrity?per_page=1&page=2`)).body.items.map((x: Item) => x.listing.slug)).toEqual(['steady']);
  });

  test('cached like other public reads: ETag and 304, and a discount shows once the directory changes', async () => {
    const first = await app.get(`/launches/weeks/${LAST}/integrity`);
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^(W\/)?".+"$/);
    expect((await app.get(`/launches/weeks/${LAST}/integrity`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    await app.sql`update votes set discounted_at = now(), discount_reason = 'Same network, same minute' where listing_id = ${ids.spiky}
                  and user_id in (select id from users where email like 'new%')`;
    await app.sql`select refresh_directory_views()`;
    const after = await eventually(
      async () => (await app.json(`/launches/weeks/${LAST}/integrity`)).body,
      (b) => b.items[0].listing.slug === 'steady',
    );
    expect(bySlug(after.items).spiky).toMatchObject({
      rank: 2,
      counted_votes: 2,
      discounted_votes: 6,
      discounted: [{ reason: 'Same network, same minute', votes: 6 }],
      summary: '2 votes, 75% from new accounts, 6 discounted',
    });
    await app.sql`update votes set discounted_at = null, discount_reason = null where listing_id = ${ids.spiky}`;
    await app.sql`select refresh_directory_views()`;
  });

  test('an MCP tool of the same name returns what REST returns; OpenAPI documents it as beyond the spec', async () => {
    const rest = await eventually(
      async () => (await app.json(`/launches/weeks/${LAST}/integrity`)).body,
      (b) => b.items[0].listing.slug === 'spiky',
    );
    const res = await app.fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_launch_integrity', arguments: { week: LAST } } }),
    });
    const text = await res.text();
    const message = JSON.parse(
      text.startsWith('{')
        ? text
        : text
            .split('\n')
            .find((l) => l.startsWith('data: '))!
            .slice(6),
    );
    expect(message.result.isError ?? false).toBe(false);
    expect(message.result.structuredContent).toEqual(rest);
    const doc = await (await app.get(`${app.url}/api/v1/openapi.json`)).json();
    const op = doc.paths['/launches/weeks/{week}/integrity'].get;
    expect(op.operationId).toBe('get_launch_integrity');
    expect(op.description).toContain('Beyond the spec');
  });

  test('the launch week page links to the report and shows a line per launch', async () => {
    const page = await eventually(
      async () => (await app.fetch(`${app.url}/launches/weeks/${LAST}`)).text(),
      (t) => t.includes('8 votes, 75% from new accounts'),
    );
    expect(page).toContain(`href="/api/v1/launches/weeks/${LAST}/integrity"`);
    expect(page).toContain('8 votes, 75% from new accounts');
    expect(page).toContain('7 votes, 0% from new accounts');
  });
});
