import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../harness.ts';
import { signInWithClient, WebClient } from '../browser.ts';
import { runOps } from '../../pipeline/ops/run.ts';
import { eventually, holds } from '../eventually.ts';

// People's actions through the site's forms as plain POSTs (no JavaScript), and their JSON answers
// for the page script. Votes, follows and reviews are rate limited per person (RATE_LIMIT_WRITES).

let app: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    env: { RATE_LIMIT_WRITES: '12' },
    prepare: async (sql, siteId) => {
      const [owner] = await sql`insert into users (email) values ('owner-actions@example.test') returning id`;
      const [cat] = await sql`insert into categories (slug, name) values ('tools', 'Tools') returning id`;
      for (const [slug, status, own] of [
        ['alpha', 'live', true],
        ['beta', 'live', false],
        ['gamma', 'live', false],
        ['later', 'scheduled', false],
      ] as const) {
        const [co] =
          await sql`insert into companies (name, domain, website_url) values (${slug}, ${slug + '.test'}, ${'https://' + slug + '.test'}) returning id`;
        const [l] =
          await sql`insert into listings ${sql({ site_id: siteId, company_id: co.id, slug, name: `Listing ${slug}`, url: `https://${slug}.test`, domain: `${slug}.test`, status, primary_category_id: cat.id, owner_user_id: own ? owner.id : null } as never)} returning id`;
        await sql`insert into listing_categories (listing_id, category_id, is_primary) values (${l.id}, ${cat.id}, true)`;
        ids[slug] = Number(l.id);
      }
    },
  });
}, 120_000);
afterAll(() => app.stop());

async function signedIn(email: string) {
  const c = new WebClient(app.url, app.fetch);
  await signInWithClient(c, app.sql, email);
  return c;
}
const count = async (table: 'votes' | 'follows', slug: string) =>
  (await app.sql`select count(*)::int as n from ${app.sql(table)} where listing_id = ${ids[slug]}`)[0].n as number;

describe('votes', () => {
  test('upvote and remove a vote with plain form POSTs; the page reflects it at once', async () => {
    const c = await signedIn('voter1@example.test');
    const csrf = await c.csrf('/listings/beta');
    let res = await c.post('/listings/beta/vote', { csrf, do: 'add' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${app.url}/listings/beta`);
    expect(await count('votes', 'beta')).toBe(1);
    expect(await (await c.get('/listings/beta')).text()).toContain('aria-pressed="true">Voted <span class="count">1</span>');
    res = await c.post('/listings/beta/vote', { csrf, do: 'add' }); // voting twice keeps one vote
    expect(await count('votes', 'beta')).toBe(1);
    res = await c.post('/listings/beta/vote', { csrf, do: 'remove' });
    expect(res.status).toBe(303);
    expect(await count('votes', 'beta')).toBe(0);
    expect(await (await c.get('/listings/beta')).text()).toContain('aria-pressed="false">Upvote <span class="count">0</span>');
  });

  test('a second vote by the same person is refused by the database (unique key)', async () => {
    const [u] = await app.sql`insert into users (email) values ('dbvoter@example.test') returning id`;
    await app.sql`insert into votes (listing_id, user_id) values (${ids.gamma}, ${u.id})`;
    expect(app.sql`insert into votes (listing_id, user_id) values (${ids.gamma}, ${u.id})`).rejects.toThrow(/duplicate key|votes_pkey/);
  });

  test('only live listings take votes and follows; owners cannot vote for their own listing', async () => {
    const c = await signedIn('voter2@example.test');
    const csrf = await c.csrf('/listings/beta');
    expect((await c.post('/listings/later/vote', { csrf, do: 'add' })).status).toBe(404);
    expect((await c.post('/listings/later/follow', { csrf, do: 'add' })).status).toBe(404);
    expect(await count('votes', 'later')).toBe(0);
    const [u] = await app.sql`select id from users where email = 'voter2@example.test'`;
    expect((await app.sql`select cast_vote(${ids.later}, ${u.id}) as r`)[0].r).toBe('not_live');
    const owner = await signedIn('owner-actions@example.test');
    const oc = await owner.csrf('/listings/alpha');
    expect(await (await owner.get('/listings/alpha')).text()).toContain('You own this listing');
    const res = await owner.post('/listings/alpha/vote', { csrf: oc, do: 'add' }, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(403);
    expect((await res.json()).outcome).toBe('own_listing');
    expect(await count('votes', 'alpha')).toBe(0);
  });

  test("the script's JSON answer carries the new state", async () => {
    const c = await signedIn('voter3@example.test');
    const csrf = await c.csrf('/listings/gamma');
    const res = await c.post('/listings/gamma/vote', { csrf, do: 'add' }, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ outcome: 'ok', voted: true, votes: 2 });
  });
});

describe('forms are protected', () => {
  test('a missing or wrong CSRF token, or another Origin, is refused (403) and changes nothing', async () => {
    const c = await signedIn('csrf-actions@example.test');
    const csrf = await c.csrf('/listings/beta');
    for (const res of [
      await c.post('/listings/beta/vote', { do: 'add' }),
      await c.post('/listings/beta/vote', { csrf: 'x'.repeat(43), do: 'add' }),
      await c.post('/listings/beta/vote', { csrf, do: 'add' }, { origin: 'https://evil.example' }),
      await c.post('/listings/beta/follow', { csrf, do: 'add' }, { origin: null, headers: { referer: 'https://evil.example/x' } }),
      await c.post('/listings/beta/review', { csrf, rating: '5', body: 'x' }, { origin: 'https://evil.example' }),
    ])
      expect(res.status).toBe(403);
    expect(await count('votes', 'beta')).toBe(0);
    expect(await count('follows', 'beta')).toBe(0);
  });

  test('without a session a POST goes to sign-in, which returns to the listing', async () => {
    const c = new WebClient(app.url, app.fetch);
    const csrf = await c.csrf('/sign-in');
    const res = await c.post('/listings/beta/vote', { csrf, do: 'add', back: '/listings/beta' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${app.url}/sign-in?return_to=${encodeURIComponent('/listings/beta')}`);
    const page = await (await app.fetch(`${app.url}/listings/beta`)).text();
    expect(page).toContain(`href="/sign-in?return_to=${encodeURIComponent('/listings/beta')}"`);
  });

  test('votes, follows and reviews are rate limited per person', async () => {
    const c = await signedIn('busy@example.test');
    const csrf = await c.csrf('/listings/beta');
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) statuses.push((await c.post('/listings/beta/follow', { csrf, do: i % 2 ? 'remove' : 'add' })).status);
    expect(statuses.slice(0, 12).every((s) => s === 303)).toBe(true);
    expect(statuses.slice(12)).toEqual([429, 429]);
  });
});

describe('follows and reviews', () => {
  test('follow and unfollow', async () => {
    const c = await signedIn('follower@example.test');
    const csrf = await c.csrf('/listings/gamma');
    expect((await c.post('/listings/gamma/follow', { csrf, do: 'add' })).status).toBe(303);
    expect(await (await c.get('/listings/gamma')).text()).toContain('aria-pressed="true">Following');
    expect(await count('follows', 'gamma')).toBe(1);
    await c.post('/listings/gamma/follow', { csrf, do: 'remove' });
    expect(await count('follows', 'gamma')).toBe(0);
  });

  test('one review per person, editable; owners cannot review their own listing; the site team decides on flagged reviews', async () => {
    // The edge hears of the refresh by NOTIFY: the rating is read until it is the one expected.
    const ratingIs = async (expected: { average: number | null; count: number }) => {
      await app.sql`select refresh_directory_views()`;
      return eventually(
        async () => (await app.json('/listings/alpha')).body.community_rating,
        (r) => JSON.stringify(r) === JSON.stringify(expected),
      );
    };
    const a = await signedIn('reviewer-a@example.test');
    let csrf = await a.csrf('/listings/alpha');
    expect((await a.post('/listings/alpha/review', { csrf, rating: '4', body: 'Good' })).headers.get('location')).toBe(`${app.url}/listings/alpha#reviews`);
    expect((await a.post('/listings/alpha/review', { csrf, rating: '2', body: 'Changed my mind' })).status).toBe(303);
    const rows = await app.sql`select id, rating, body from reviews where listing_id = ${ids.alpha}`;
    expect(rows.length).toBe(1);
    expect(rows[0]).toMatchObject({ rating: 2, body: 'Changed my mind' });
    expect((await a.post('/listings/alpha/review', { csrf, rating: '9', body: 'x' })).status).toBe(400);
    const owner = await signedIn('owner-actions@example.test');
    const oc = await owner.csrf('/listings/alpha');
    const refused = await owner.post('/listings/alpha/review', { csrf: oc, rating: '5', body: 'Mine is great' }, { headers: { accept: 'application/json' } });
    expect(refused.status).toBe(403);
    expect((await refused.json()).outcome).toBe('own_listing');
    expect(await ratingIs({ average: 2, count: 1 })).toEqual({ average: 2, count: 1 });

    // An established account's flag puts the review in the queue but does not hide it.
    const flagger = await signedIn('flagger@example.test');
    await app.sql`update users set created_at = now() - interval '30 days' where email = 'flagger@example.test'`;
    csrf = await flagger.csrf('/listings/alpha');
    const res = await flagger.post(`/reviews/${rows[0].id}/flag`, { csrf });
    expect(res.status).toBe(303);
    expect(await ratingIs({ average: 2, count: 1 })).toEqual({ average: 2, count: 1 });
    expect(await (await app.fetch(`${app.url}/listings/alpha`)).text()).toContain('Changed my mind');

    const out: string[] = [];
    const io = { sql: app.sql, out: (l: string) => out.push(l), err: (l: string) => out.push(l), actor: 'tess' };
    expect(await runOps(['reviews', 'flagged'], io)).toBe(0);
    expect(out.join('\n')).toContain(`review ${rows[0].id} on alpha by reviewer-a@example.test: 2/5, 1 flag`);
    expect(out.join('\n')).toContain('flagged by flagger@example.test');
    expect(await runOps(['reviews', 'remove', String(rows[0].id)], io)).toBe(2); // a reason is required
    expect(await runOps(['reviews', 'remove', String(rows[0].id), '--reason', 'Insults the team'], io)).toBe(0);
    expect(await ratingIs({ average: null, count: 0 })).toEqual({ average: null, count: 0 });
    expect(await (await app.fetch(`${app.url}/listings/alpha`)).text()).not.toContain('Changed my mind');
    // Removed, not deleted: keeping it undoes the mistake.
    expect(await runOps(['reviews', 'keep', String(rows[0].id), '--reason', 'On a second reading it is fair'], io)).toBe(0);
    expect(await ratingIs({ average: 2, count: 1 })).toEqual({ average: 2, count: 1 });
    expect(await runOps(['reviews', 'keep', '999999', '--reason', 'x'], io)).toBe(1);
    expect(await runOps(['reviews', 'keep', 'x', '--reason', 'x'], io)).toBe(2);
    const audit = await app.sql`select action, actor, before, after from operator_audit where target = ${`review:${rows[0].id}`} order by id`;
    expect(audit.map((r) => r.action)).toEqual(['review.remove', 'review.keep']);
    expect(audit[0]).toMatchObject({ actor: 'tess', before: { hidden: false, open_flags: 1 }, after: { hidden: true, moderation: 'removed', open_flags: 0 } });
    expect(audit[1].after).toMatchObject({ hidden: false, moderation: 'kept', moderation_reason: 'On a second reading it is fair' });
    const mails = await app.sql`select to_address, kind, body_text from mail_outbox where kind like 'review%' order by id`;
    expect(mails.map((m) => [m.to_address, m.kind])).toEqual([
      ['reviewer-a@example.test', 'review_decision'],
      ['flagger@example.test', 'review_flag_decision'],
      ['reviewer-a@example.test', 'review_decision'],
    ]);
    expect(mails[0].body_text).toContain('Reason: Insults the team');
  });
});

describe('views', () => {
  test('count at most once per visitor per listing per day, stored only as a salted hash', async () => {
    const views = async () => (await app.sql`select coalesce(sum(views), 0)::int as n from listing_views where listing_id = ${ids.gamma}`)[0].n as number;
    // A view is counted after the page is answered: wait for the count, then check it stays there.
    const settle = (n: number) => eventually(views, (v) => v >= n);
    const before = await views();
    const visitorsBefore = (await app.sql`select count(*)::int as n from listing_view_visitors where listing_id = ${ids.gamma}`)[0].n as number;
    await app.fetch(`${app.url}/listings/gamma`, { headers: { 'user-agent': 'visitor-one' } });
    await settle(before + 1);
    await app.fetch(`${app.url}/listings/gamma`, { headers: { 'user-agent': 'visitor-one' } });
    await app.fetch(`${app.url}/listings/gamma`, { headers: { 'user-agent': 'visitor-two' } });
    await settle(before + 2);
    expect(await holds(views, (v) => v === before + 2)).toBe(before + 2);
    const stored = await app.sql`select encode(visitor, 'hex') as h from listing_view_visitors where listing_id = ${ids.gamma}`;
    expect(stored.length).toBe(visitorsBefore + 2);
    for (const r of stored) {
      expect(r.h).toMatch(/^[0-9a-f]{64}$/);
    }
    const dump =
      JSON.stringify(await app.sql`select listing_id::text, day::text, encode(visitor, 'escape') as v from listing_view_visitors`) +
      JSON.stringify(await app.sql`select day::text, salt from view_salts`);
    expect(dump).not.toContain('127.0.0.1');
    expect(dump).not.toContain('visitor-one');
  });
});
