import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../harness.ts';
import { signInWithClient, WebClient } from '../browser.ts';
import { runOps } from '../../pipeline/ops/run.ts';

// People's actions through the site's forms as plain POSTs (no JavaScript), and their JSON answers
// for the page script. Votes, follows and reviews are rate limited per person (RATE_LIMIT_WRITES).

let app: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  app = await startTestApp({
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
  const c = new WebClient(app.url);
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
    const c = new WebClient(app.url);
    const csrf = await c.csrf('/sign-in');
    const res = await c.post('/listings/beta/vote', { csrf, do: 'add', back: '/listings/beta' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${app.url}/sign-in?return_to=${encodeURIComponent('/listings/beta')}`);
    const page = await (await fetch(`${app.url}/listings/beta`)).text();
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

  test("one review per person, editable; the owner's never counts; flagged ones stop counting until an operator clears them", async () => {
    const rating = async () => {
      await app.sql`select refresh_directory_views()`;
      return (await app.json('/listings/alpha')).body.community_rating;
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
    await owner.post('/listings/alpha/review', { csrf: oc, rating: '5', body: 'Mine is great' });
    expect(await rating()).toEqual({ average: 2, count: 1 });
    const page = await (await fetch(`${app.url}/listings/alpha`)).text();
    expect(page).toContain('Owner, not counted');

    const flagger = await signedIn('flagger@example.test');
    csrf = await flagger.csrf('/listings/alpha');
    const res = await flagger.post(`/reviews/${rows[0].id}/flag`, { csrf });
    expect(res.status).toBe(303);
    expect(await rating()).toEqual({ average: null, count: 0 });
    expect(await (await fetch(`${app.url}/listings/alpha`)).text()).not.toContain('Changed my mind');

    const out: string[] = [];
    const io = { sql: app.sql, out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    expect(await runOps(['reviews', 'flagged'], io)).toBe(0);
    expect(out.join('\n')).toContain(`review ${rows[0].id} on alpha by reviewer-a@example.test: 2/5, 1 flag`);
    expect(await runOps(['reviews', 'clear', String(rows[0].id)], io)).toBe(0);
    expect(await rating()).toEqual({ average: 2, count: 1 });
    expect(await runOps(['reviews', 'remove', String(rows[0].id)], io)).toBe(0);
    expect(await rating()).toEqual({ average: null, count: 0 });
    expect(await runOps(['reviews', 'remove', String(rows[0].id)], io)).toBe(1);
    expect(await runOps(['reviews', 'clear', 'x'], io)).toBe(2);
    // Both changes are in the operator audit trail with the review before and after.
    const audit = await app.sql`select action, before, after from operator_audit where target = ${`review:${rows[0].id}`} order by id`;
    expect(audit.map((r) => r.action)).toEqual(['review.clear', 'review.remove']);
    expect(audit[0].before.flags).toBe(1);
    expect(audit[0].after.flags).toBe(0);
    expect(audit[1].after).toBeNull();
  });
});

describe('views', () => {
  test('count at most once per visitor per listing per day, stored only as a salted hash', async () => {
    const views = async () => (await app.sql`select coalesce(sum(views), 0)::int as n from listing_views where listing_id = ${ids.gamma}`)[0].n as number;
    const settle = async (n: number) => {
      for (let i = 0; i < 50 && (await views()) < n; i++) await Bun.sleep(20);
    };
    const before = await views();
    const visitorsBefore = (await app.sql`select count(*)::int as n from listing_view_visitors where listing_id = ${ids.gamma}`)[0].n as number;
    await fetch(`${app.url}/listings/gamma`, { headers: { 'user-agent': 'visitor-one' } });
    await settle(before + 1);
    await fetch(`${app.url}/listings/gamma`, { headers: { 'user-agent': 'visitor-one' } });
    await fetch(`${app.url}/listings/gamma`, { headers: { 'user-agent': 'visitor-two' } });
    await settle(before + 2);
    await Bun.sleep(100);
    expect(await views()).toBe(before + 2);
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
