import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../harness.ts';
import { signInWithClient, WebClient } from '../browser.ts';
import { makeApiKey } from '../builders.ts';
import { eventually } from '../eventually.ts';
import { runOpsCommand } from '../ops.ts';

// Moderation by the site team: a listing taken off every public surface (its owner told why) and
// put back; a person suspended (signed out, keys and grants revoked, votes, reviews and flags no
// longer counting, all kept) and restored; newly submitted listings in one list.

let app: TestApp;
const ids: Record<string, number> = {};
const ownerKey: { key: string } = { key: '' };

beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      const [owner] = await sql`insert into users (email) values ('maker@example.test') returning id`;
      for (const slug of ['spammy', 'fine']) {
        const [co] = await sql`insert into companies (name, domain, website_url) values (${slug}, ${`${slug}.test`}, ${`https://${slug}.test`}) returning id`;
        const [l] = await sql`
          insert into listings (site_id, company_id, slug, name, url, domain, status, owner_user_id, launched_at, tagline)
          values (${siteId}, ${co.id}, ${slug}, ${`The ${slug} app`}, ${`https://${slug}.test`}, ${`${slug}.test`}, 'live', ${owner.id}, now() - interval '1 day', 'Zebra widgets')
          returning id`;
        ids[slug] = Number(l.id);
      }
      ownerKey.key = await makeApiKey(sql, { id: String(owner.id) }, ['account:read']);
    },
  });
}, 120_000);
afterAll(() => app.stop());

const ops = async (...argv: string[]) => {
  const { code, lines } = await runOpsCommand(argv, { sql: app.sql, actor: 'moderator' });
  return { code, out: lines };
};
async function signedIn(email: string) {
  const c = new WebClient(app.url, app.fetch);
  await signInWithClient(c, app.sql, email);
  return c;
}
const surfaces = async () => {
  const [page, api, search, feed, sitemap] = await Promise.all([
    app.fetch(`${app.url}/listings/spammy`, { headers: { accept: 'text/html' } }),
    app.json('/listings/spammy'),
    app.json('/listings?q=zebra'),
    app.fetch(`${app.url}/feeds/launches.xml`).then((r) => r.text()),
    app.fetch(`${app.url}/sitemaps/listings-1.xml`).then((r) => r.text()),
  ]);
  return {
    page: page.status,
    api: api.status,
    search: (search.body.items as { slug: string }[]).map((i) => i.slug).sort(),
    feed: feed.includes('/listings/spammy'),
    sitemap: sitemap.includes('/listings/spammy'),
  };
};

describe('ops listings hide|restore', () => {
  test('a hidden listing leaves every public surface; its owner sees why; restoring puts it back', async () => {
    await app.sql`select refresh_directory_views()`;
    const shown = { page: 200, api: 200, search: ['fine', 'spammy'], feed: true, sitemap: true };
    expect(await eventually(surfaces, (s) => JSON.stringify(s) === JSON.stringify(shown))).toEqual(shown);

    expect((await ops('listings', 'hide', 'spammy')).code).toBe(2); // a reason is required
    expect(await ops('listings', 'hide', 'spammy', '--reason', 'Copies another product and its reviews')).toMatchObject({ code: 0 });
    await app.sql`select refresh_directory_views()`;
    const gone = { page: 404, api: 404, search: ['fine'], feed: false, sitemap: false };
    expect(await eventually(surfaces, (s) => JSON.stringify(s) === JSON.stringify(gone))).toEqual(gone);
    const mcp = await app.fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_listing', arguments: { slug: 'spammy' } } }),
    });
    expect(await mcp.text()).toContain('"isError":true');

    const mine = await app.json(`/me/listings/${ids.spammy}`, { headers: { authorization: `Bearer ${ownerKey.key}` } });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ status: 'hidden', status_reason: 'hidden_by_site_team', status_detail: 'Copies another product and its reviews' });
    const [mail] = await app.sql`select to_address, body_text from mail_outbox where kind = 'listing_hidden'`;
    expect(mail.to_address).toBe('maker@example.test');
    expect(mail.body_text).toContain('Reason: Copies another product and its reviews');
    expect((await ops('listings', 'hide', 'spammy', '--reason', 'again')).code).toBe(1);
    expect((await ops('listings', 'hide', 'nope', '--reason', 'x')).code).toBe(1);

    expect((await ops('listings', 'restore', 'spammy')).code).toBe(0);
    await app.sql`select refresh_directory_views()`;
    expect(await eventually(surfaces, (s) => JSON.stringify(s) === JSON.stringify(shown))).toEqual(shown);
    expect((await app.sql`select status, status_reason from listings where id = ${ids.spammy}`)[0]).toEqual({ status: 'live', status_reason: null });
    expect((await ops('listings', 'restore', 'spammy')).code).toBe(1);
    const audit = await app.sql`select action, actor, before, after from operator_audit where target = 'listing:spammy' order by id`;
    expect(audit.map((a) => [a.action, a.actor, a.before.status, a.after.status])).toEqual([
      ['listing.hide', 'moderator', 'live', 'hidden'],
      ['listing.restore', 'moderator', 'hidden', 'live'],
    ]);
  });
});

describe('ops users suspend|restore', () => {
  test('a suspended person is signed out, loses keys and grants, and their votes, reviews and flags stop counting until restored', async () => {
    const troll = await signedIn('troll@example.test');
    await app.sql`update users set created_at = now() - interval '60 days' where email = 'troll@example.test'`;
    const [t] = await app.sql<{ id: string }[]>`select id::text from users where email = 'troll@example.test'`;
    const key = await makeApiKey(app.sql, t, ['account:read']);
    await app.sql`insert into oauth_clients (client_id, kind, redirect_uris) values ('https://client.test/meta.json', 'metadata_document', array['https://client.test/cb'])`;
    await app.sql`insert into oauth_grants (user_id, client_id, scopes, resource) values (${t.id}, 'https://client.test/meta.json', array['account:read'], 'x')`;
    const csrf = await troll.csrf('/listings/fine');
    await troll.post('/listings/fine/vote', { csrf, do: 'add' });
    await troll.post('/listings/fine/review', { csrf, rating: '1', body: 'Worst thing ever, avoid' });
    // A fair review with two other established flaggers: the troll's flag is the third, which hides it.
    const [critic] = await app.sql`insert into users (email) values ('critic2@example.test') returning id`;
    const [fair] = await app.sql`insert into reviews (listing_id, user_id, rating, body) values (${ids.fine}, ${critic.id}, 4, 'Fair and useful') returning id`;
    for (const f of ['f1', 'f2']) {
      const [u] = await app.sql`insert into users (email, created_at) values (${`${f}@example.test`}, now() - interval '60 days') returning id`;
      await app.sql`insert into review_flags (review_id, user_id, created_at) values (${fair.id}, ${u.id}, now())`;
    }
    expect((await troll.post(`/reviews/${fair.id}/flag`, { csrf })).status).toBe(303);
    expect((await app.sql`select flagged from reviews where id = ${fair.id}`)[0].flagged).toBe(true);
    await app.sql`select refresh_directory_views()`;
    const counts = async () => {
      await app.sql`select refresh_directory_views()`;
      const b = (await app.json('/listings/fine')).body;
      return { votes: b.votes as number, rating: b.community_rating };
    };
    expect(await eventually(counts, (c) => c.votes === 1)).toEqual({ votes: 1, rating: { average: 1, count: 1 } });
    expect((await app.get('/me', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);

    expect(await ops('users', 'suspend', 'troll@example.test')).toMatchObject({ code: 2 });
    expect(await ops('users', 'suspend', 'troll@example.test', '--reason', 'Brigading reviews')).toMatchObject({ code: 0 });
    // Signed out, and cannot come back with the old cookie or key; the grant is revoked.
    expect(await (await troll.get('/listings/fine')).text()).not.toContain('name="csrf"');
    expect((await app.get('/me', { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    expect((await app.sql`select revoked_at is not null as r from oauth_grants where user_id = ${t.id}`)[0].r).toBe(true);
    // Kept, not counted: the vote and the review stay stored; the fair review is shown again.
    expect(await eventually(counts, (c) => c.votes === 0)).toEqual({ votes: 0, rating: { average: 4, count: 1 } });
    expect((await app.sql`select count(*)::int as n from votes where listing_id = ${ids.fine}`)[0].n).toBe(1);
    expect((await app.sql`select flagged from reviews where id = ${fair.id}`)[0].flagged).toBe(false);
    const page = await eventually(
      async () => (await app.fetch(`${app.url}/listings/fine`)).text(),
      (p) => !p.includes('Worst thing ever'),
    );
    expect(page).not.toContain('Worst thing ever');
    expect(page).toContain('Fair and useful');
    // Signing in again does not help while suspended.
    const again = await signedIn('troll@example.test');
    expect(await (await again.get('/listings/fine')).text()).not.toContain('name="csrf"');
    const [mail] = await app.sql`select body_text from mail_outbox where kind = 'account_suspended' and to_address = 'troll@example.test'`;
    expect(mail.body_text).toContain('Reason: Brigading reviews');

    expect((await ops('users', 'restore', 'troll@example.test')).code).toBe(0);
    expect(await eventually(counts, (c) => c.votes === 1)).toEqual({ votes: 1, rating: { average: 1, count: 1 } });
    expect((await app.sql`select flagged from reviews where id = ${fair.id}`)[0].flagged).toBe(true);
    expect((await ops('users', 'restore', 'troll@example.test')).code).toBe(1);
    expect((await ops('users', 'suspend', 'nobody@example.test', '--reason', 'x')).code).toBe(1);
    const audit = await app.sql`select action from operator_audit where target = 'user:troll@example.test' order by id`;
    expect(audit.map((a) => a.action)).toEqual(['user.suspend', 'user.restore']);
  });
});

describe('ops moderation --new', () => {
  test('lists listings as they were submitted, newest first', async () => {
    const [co] = await app.sql`insert into companies (name, domain, website_url) values ('Fresh', 'fresh.test', 'https://fresh.test') returning id`;
    await app.sql`insert into listings (site_id, company_id, slug, name, url, domain, status) values (${app.siteId}, ${co.id}, 'fresh', 'Fresh', 'https://fresh.test', 'fresh.test', 'draft')`;
    const r = await ops('moderation', '--new', '--limit', '2');
    expect(r.code).toBe(0);
    expect(r.out.length).toBe(2);
    expect(r.out[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}fresh {2}draft {2}Fresh <https:\/\/fresh.test> by \(no owner\)$/);
    expect(r.out[1]).toContain('by maker@example.test');
  });
});
