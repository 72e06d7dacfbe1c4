// A claim proves control of the product's own host: a tag or file served by another host after a
// redirect proves nothing, nor does a tag outside the served <head>; a TXT record split into
// several strings counts joined; claim mails are capped and say who asked and what confirming does.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { makeListing, ownersEnv } from './env.ts';
import { startDnsServer, type TestDns } from '../dns-server.ts';
import { page, startOwnerSite, type OwnerSite } from '../owner-site.ts';
import { callMcpTool } from '../mcp-call.ts';
import { CLAIM_MAILS_PER_DAY } from '../../core/claims/create-claim.ts';

let dns: TestDns;
let product: OwnerSite;
let elsewhere: OwnerSite;
beforeAll(async () => {
  dns = await startDnsServer();
  product = startOwnerSite('127.0.0.1');
  // Another host on the same machine: the attacker's site.
  elsewhere = startOwnerSite('127.0.0.2');
});
afterAll(async () => {
  product?.stop();
  elsewhere?.stop();
  await dns?.stop();
});

const { env, call } = ownersEnv({ socket: false, env: () => ({ CLAIM_DNS_SERVER: dns.server }) });
const slugOf = async (id: number) => (await env.app.sql`select slug from listings where id = ${id}`)[0].slug as string;

let n = 0;
/** A live listing of its own company, whose url is the loopback product site. */
async function listingAt(url: string): Promise<string> {
  const id = await makeListing(env.app.sql, { siteId: env.app.siteId, userId: env.userIds.owner, url: `https://proof${++n}.example/`, status: 'live' });
  await env.app.sql`update listings set url = ${url} where id = ${id}`;
  return slugOf(id);
}
const claim = async (slug: string, method: string) => {
  const made = await call('POST', '/claims', { slug, method }, 'other');
  expect(made.status).toBe(201);
  return made.body;
};
const verify = async (id: number) => (await call('POST', `/claims/${id}/verify`, undefined, 'other')).body;
const ownerOf = async (slug: string) => (await env.app.sql`select owner_user_id::text as o from listings where slug = ${slug}`)[0].o;

describe('meta and file claims read the product host only', () => {
  beforeEach(() => {
    product.redirects.clear();
    product.files.clear();
  });

  test('a homepage that redirects to another host does not verify a meta claim (REST and MCP)', async () => {
    const slug = await listingAt(product.url);
    const c = await claim(slug, 'meta');
    product.redirects.set('/', elsewhere.url);
    elsewhere.home = page('<h1>Not the product</h1>', c.instructions.meta.tag);
    const v = await verify(c.id);
    expect(v).toMatchObject({ status: 'pending', last_check: { reason: 'site_refused' } });
    expect(v.last_check.detail).toContain('another host');
    const viaMcp = await callMcpTool(env.app, env.keys.other, 'verify_claim', { claim_id: c.id });
    expect(viaMcp.body).toMatchObject({ status: 'pending', last_check: { reason: 'site_refused' } });
    expect(elsewhere.hits).not.toContain('/');
    expect(await ownerOf(slug)).toBe(env.userIds.owner);
  });

  test('a verification file that redirects to another host does not verify a file claim', async () => {
    const slug = await listingAt(product.url);
    const c = await claim(slug, 'file');
    product.redirects.set(c.instructions.file.path, new URL(c.instructions.file.path, elsewhere.url).href);
    elsewhere.files.set(c.instructions.file.path, c.instructions.file.content);
    expect(await verify(c.id)).toMatchObject({ status: 'pending', last_check: { reason: 'site_refused' } });
    expect(await ownerOf(slug)).toBe(env.userIds.owner);
  });

  test('the tag counts only in the served <head>: not in the body, a comment, <noscript> or <template>', async () => {
    const slug = await listingAt(product.url);
    const c = await claim(slug, 'meta');
    const tag = c.instructions.meta.tag;
    for (const [body, head] of [
      [`<p>${tag}</p>`, ''],
      ['', `<!-- ${tag} -->`],
      ['', `<noscript>${tag}</noscript>`],
      ['', `<template>${tag}</template>`],
      [`<noscript>${tag}</noscript>`, ''],
    ]) {
      product.home = page(`<h1>Product</h1>${body}`, head);
      expect((await verify(c.id)).last_check?.reason, body + head).toBe('meta_tag_not_found');
    }
    expect(await ownerOf(slug)).toBe(env.userIds.owner);
  });

  test('a redirect within the same host is followed, and the tag in its <head> verifies', async () => {
    const slug = await listingAt(product.url);
    const c = await claim(slug, 'meta');
    product.redirects.set('/', new URL('/home', product.url).href);
    product.files.set('/home', page('<h1>Product</h1>', c.instructions.meta.tag));
    expect(await verify(c.id)).toMatchObject({ status: 'verified' });
    expect(await ownerOf(slug)).toBe(env.userIds.other);
  });
});

describe('DNS claims', () => {
  test('a TXT record published as several strings counts as the strings joined', async () => {
    const id = await makeListing(env.app.sql, { siteId: env.app.siteId, userId: env.userIds.owner, url: 'https://split-txt.example/', status: 'live' });
    const c = await claim(await slugOf(id), 'dns');
    const { name, value } = c.instructions.dns;
    const cut = value.length - 10;
    dns.txt.set(name, ['v=spf1 -all', [value.slice(0, cut), value.slice(cut)]]);
    expect(await verify(c.id)).toMatchObject({ status: 'verified' });
    // Strings that do not join to the value do not verify.
    const other = await makeListing(env.app.sql, { siteId: env.app.siteId, userId: env.userIds.owner, url: 'https://split-wrong.example/', status: 'live' });
    const c2 = await claim(await slugOf(other), 'dns');
    dns.txt.set(c2.instructions.dns.name, [[c2.instructions.dns.value.slice(0, 20), 'x', c2.instructions.dns.value.slice(20)]]);
    expect((await verify(c2.id)).last_check.reason).toBe('dns_record_mismatch');
  });
});

describe('products on shared hosts', () => {
  test("cannot be claimed by DNS or e-mail: the host's DNS and mailboxes prove nothing about one product", async () => {
    const id = await makeListing(env.app.sql, { siteId: env.app.siteId, userId: env.userIds.owner, url: 'https://acme-tool.vercel.app/', status: 'live' });
    const slug = await slugOf(id);
    for (const body of [
      { slug, method: 'dns' },
      { slug, method: 'email', email: 'someone@acme-tool.vercel.app' },
    ]) {
      const res = await call('POST', '/claims', body, 'other');
      expect([res.status, res.body.errors?.[0]?.field], JSON.stringify(body)).toEqual([400, 'method']);
    }
    expect((await call('POST', '/claims', { slug, method: 'meta' }, 'other')).status).toBe(201);
  });
});

describe('claim mails', () => {
  test('name the account that asked and what confirming does', async () => {
    const id = await makeListing(env.app.sql, { siteId: env.app.siteId, userId: env.userIds.owner, url: 'https://mail-words.example/', status: 'live' });
    const made = await call('POST', '/claims', { slug: await slugOf(id), method: 'email', email: 'ceo@mail-words.example' }, 'other');
    expect(made.status).toBe(201);
    const [mail] = await env.app.sql`select body_text from mail_outbox where to_address = 'ceo@mail-words.example' and kind = 'claim_link'`;
    expect(mail.body_text).toContain('The account other@example.com');
    expect(mail.body_text).toContain('co-owner');
  });

  test(`at most ${CLAIM_MAILS_PER_DAY} a day to an address and to a listing: then 429 with Retry-After (REST and MCP)`, async () => {
    const a = await slugOf(
      await makeListing(env.app.sql, { siteId: env.app.siteId, userId: env.userIds.owner, url: 'https://capped.example/', status: 'live' }),
    );
    for (let i = 0; i < CLAIM_MAILS_PER_DAY; i++) {
      expect((await call('POST', '/claims', { slug: a, method: 'email', email: 'boss@capped.example' }, 'other')).status).toBe(201);
    }
    const over = await call('POST', '/claims', { slug: a, method: 'email', email: 'boss@capped.example' }, 'other');
    expect([over.status, over.body.code]).toEqual([429, 'claim_mail_daily_limit']);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address at the same listing: the listing's cap.
    const another = await call('POST', '/claims', { slug: a, method: 'email', email: 'cto@capped.example' }, 'other');
    expect([another.status, another.body.code]).toEqual([429, 'claim_mail_daily_limit']);
    const viaMcp = await callMcpTool(env.app, env.keys.other, 'claim_listing', { slug: a, method: 'email', email: 'boss@capped.example' });
    expect([viaMcp.isError, viaMcp.body.status, viaMcp.body.code]).toEqual([true, 429, 'claim_mail_daily_limit']);
    expect((await env.app.sql`select count(*)::int as n from mail_outbox where to_address like '%@capped.example'`)[0].n).toBe(CLAIM_MAILS_PER_DAY);
    // A day later the address may be mailed again.
    await env.app.sql`update claims set created_at = created_at - interval '1 day' where email like '%@capped.example'`;
    expect((await call('POST', '/claims', { slug: a, method: 'email', email: 'boss@capped.example' }, 'other')).status).toBe(201);
  });
});
