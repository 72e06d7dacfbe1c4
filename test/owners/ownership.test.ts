// Ownership follows control of the domain, and nobody is evicted silently: a proof against an
// owner who never proved control moves the listing (the loser is told, with a dispute link the
// site team sees); against one who did, or by e-mail, it adds a co-owner, whom the owner removes.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { makeListing, ownersEnv } from './env.ts';
import { startDnsServer, type TestDns } from '../dns-server.ts';
import { WebClient } from '../browser.ts';
import { callMcpTool } from '../mcp-call.ts';
import { createApiKey } from '../../core/auth/api-keys.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { runOps } from '../../pipeline/ops/run.ts';

let dns: TestDns;
beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(async () => {
  await dns?.stop();
});

const { env, call } = ownersEnv({ socket: false, env: () => ({ CLAIM_DNS_SERVER: dns.server }) });
let third = { id: '', key: '' };
const ids = { proved: 0, mailed: 0 };
const slugOf = async (id: number) => (await env.app.sql`select slug from listings where id = ${id}`)[0].slug as string;
const as3 = (method: string, path: string, body?: unknown) =>
  env.app.json(path, {
    method,
    headers: { authorization: `Bearer ${third.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

beforeAll(async () => {
  const u = await findOrCreateUser(env.app.sql, 'third@example.com');
  third = { id: u.id, key: (await createApiKey(env.app.sql, { userId: u.id, name: 't', scopes: ['account:read', 'listings:write'] })).secret };
  // Both submitted by "other", who never proved control of their domains.
  ids.proved = await makeListing(env.app.sql, { siteId: env.app.siteId, userId: env.userIds.other, url: 'https://owned-by-proof.example/', status: 'live' });
  ids.mailed = await makeListing(env.app.sql, { siteId: env.app.siteId, userId: env.userIds.other, url: 'https://co-owned-by-mail.example/', status: 'live' });
});

/** Claims by DNS as `who` (an API key) and publishes the record; answers the verified claim. */
async function proveByDns(slug: string, key: string) {
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const made = await env.app.json('/claims', { method: 'POST', headers: auth, body: JSON.stringify({ slug, method: 'dns' }) });
  expect(made.status).toBe(201);
  const { name, value } = made.body.instructions.dns;
  dns.txt.set(name, [...(dns.txt.get(name) ?? []), value]);
  const v = await env.app.json(`/claims/${made.body.id}/verify`, { method: 'POST', headers: auth });
  expect(v.body.status).toBe('verified');
  return v.body;
}
const events = (id: number) =>
  env.app.sql`select kind, previous_user_id::text as prev, new_user_id::text as next from ownership_events where listing_id = ${id} order by id`;

describe('a proof against an owner who never proved control', () => {
  test('moves the listing; the previous owner is told who and how, and can dispute to the site team', async () => {
    await proveByDns(await slugOf(ids.proved), env.keys.owner);
    expect((await env.app.sql`select owner_user_id::text as o from listings where id = ${ids.proved}`)[0].o).toBe(env.userIds.owner);
    expect([...(await events(ids.proved))]).toEqual([{ kind: 'owner_changed', prev: env.userIds.other, next: env.userIds.owner }]);
    const [mail] = await env.app.sql`select subject, body_text from mail_outbox where kind = 'listing_claimed' and to_address = 'other@example.com'`;
    expect(mail.body_text).toContain('The account owner@example.com proved control of owned-by-proof.example (a DNS TXT record)');
    expect(mail.body_text).not.toContain('reply to this mail');
    const link = /https?:\/\/\S+\/claims\/dispute\/ldd_[A-Za-z0-9_-]{43}/.exec(mail.body_text)![0];

    const web = new WebClient(env.app.url, env.app.fetch);
    const path = new URL(link).pathname;
    const form = await web.get(path);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('owner@example.com became the owner of');
    const csrf = await web.csrf(path);
    const sent = await web.post(path, { csrf, message: 'We built this product; that account is a former contractor.' });
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain('Dispute received');

    const lines: string[] = [];
    expect(await runOps(['claims', 'disputes'], { sql: env.app.sql, out: (l) => lines.push(l), err: (l) => lines.push(l) })).toBe(0);
    expect(lines.join('\n')).toContain('owner_changed by owner@example.com via dns, disputed by other@example.com');
    expect(lines.join('\n')).toContain('former contractor');
  });
});

describe('a proof against an owner who proved control', () => {
  test('adds a co-owner who can edit; the owner lists and removes them (REST and MCP); it is all in the history', async () => {
    const slug = await slugOf(ids.proved);
    await proveByDns(slug, third.key);
    expect((await env.app.sql`select owner_user_id::text as o from listings where id = ${ids.proved}`)[0].o).toBe(env.userIds.owner);
    const [mail] = await env.app.sql`select body_text from mail_outbox where kind = 'listing_claimed' and to_address = 'owner@example.com'`;
    expect(mail.body_text).toContain('The account third@example.com proved control');
    expect(mail.body_text).toContain('is now a co-owner');

    expect((await as3('PATCH', `/me/listings/${ids.proved}`, { fields: { city: 'Lisbon' } })).status).toBe(200);
    const listed = await call('GET', `/me/listings/${ids.proved}/co-owners`);
    expect(listed.body).toMatchObject({
      owner: { user_id: Number(env.userIds.owner), email: 'owner@example.com', verified: true },
      co_owners: [{ user_id: Number(third.id), email: 'third@example.com', method: 'dns' }],
    });
    // A co-owner removes nobody.
    const refused = await as3('DELETE', `/me/listings/${ids.proved}/co-owners/${third.id}`);
    expect([refused.status, refused.body.code]).toEqual([403, 'owner_only']);
    const viaMcp = await callMcpTool(env.app, env.keys.owner, 'remove_co_owner', { listing_id: ids.proved, user_id: Number(third.id) });
    expect(viaMcp).toMatchObject({ isError: false, body: { listing_id: ids.proved, removed_user_id: Number(third.id) } });
    expect((await as3('PATCH', `/me/listings/${ids.proved}`, { fields: { city: 'Porto' } })).status).toBe(404);
    expect((await events(ids.proved)).map((e) => e.kind)).toEqual(['owner_changed', 'co_owner_added', 'co_owner_removed']);
  });
});

describe('an e-mail claim', () => {
  test('makes a co-owner, never an owner, and earns no verified badge', async () => {
    const slug = await slugOf(ids.mailed);
    const made = await as3('POST', '/claims', { slug, method: 'email', email: 'founder@co-owned-by-mail.example' });
    expect(made.status).toBe(201);
    const [m] = await env.app.sql`select body_text from mail_outbox where kind = 'claim_link' and to_address = 'founder@co-owned-by-mail.example'`;
    const path = new URL(/https?:\/\/\S+\/claims\/confirm\/ldv_[A-Za-z0-9_-]{43}/.exec(m.body_text)![0]).pathname;
    const web = new WebClient(env.app.url, env.app.fetch);
    const csrf = await web.csrf(path);
    expect((await web.post(path, { csrf })).status).toBe(200);
    expect((await env.app.sql`select owner_user_id::text as o from listings where id = ${ids.mailed}`)[0].o).toBe(env.userIds.other);
    expect((await as3('PATCH', `/me/listings/${ids.mailed}`, { fields: { city: 'Lisbon' } })).status).toBe(200);
    expect((await events(ids.mailed)).map((e) => e.kind)).toEqual(['co_owner_added']);
    const badges = async (s: string) => (await env.app.json(`/listings/${s}/badges`)).body.items.map((b: any) => b.kind);
    expect(await badges(slug)).not.toContain('verified');
    expect(await badges(await slugOf(ids.proved))).toContain('verified');
  });

  test('listing pages say whether the owner verified control of the domain', async () => {
    const html = async (id: number) => (await env.app.fetch(`${env.app.url}/listings/${await slugOf(id)}`)).text();
    expect(await html(ids.proved)).toContain('Owner verified: the owner of this listing proved control of owned-by-proof.example');
    expect(await html(ids.mailed)).toContain('Owner not verified: the owner of this listing has not proved control of co-owned-by-mail.example');
  });
});
