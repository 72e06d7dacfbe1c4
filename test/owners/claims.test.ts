// Claims end to end: DNS TXT records from a dns2 server on loopback, meta tags and files on a
// website on loopback, e-mailed links with a confirm button; verification makes the claimant the
// owner, tells the earlier owner and earns the verified badge.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { conforms } from '../conforms.ts';
import { makeListing, ownersEnv } from './env.ts';
import { startDnsServer, type TestDns } from '../dns-server.ts';
import { page, startOwnerSite, type OwnerSite } from '../owner-site.ts';
import { WebClient } from '../browser.ts';
import { eventually } from '../eventually.ts';
import { claimsOperations } from '../../api/operations/claims.ts';

let dns: TestDns;
let site: OwnerSite;
beforeAll(async () => {
  dns = await startDnsServer();
  site = startOwnerSite();
});
afterAll(async () => {
  site?.stop();
  await dns?.stop();
});

const { env, call } = ownersEnv({ socket: false, env: () => ({ CLAIM_DNS_SERVER: dns.server }) });
const output = (name: string) => claimsOperations.find((o) => o.name === name)!.output;

const ids = { dns: 0, meta: 0, file: 0, email: 0, draft: 0 };
const slugOf = async (id: number) => (await env.app.sql`select slug from listings where id = ${id}`)[0].slug as string;
beforeAll(async () => {
  const { sql, siteId } = env.app;
  // The DNS listing was submitted by "other": claiming it moves it to "owner".
  ids.dns = await makeListing(sql, { siteId, userId: env.userIds.other, url: 'https://lumen-claims.example/', status: 'live' });
  ids.meta = await makeListing(sql, { siteId, userId: null, url: site.url, status: 'live' });
  ids.file = await makeListing(sql, { siteId, userId: null, url: site.url, status: 'live', name: 'File product' });
  ids.email = await makeListing(sql, { siteId, userId: null, url: 'https://www.mail-claim.example/', status: 'live' });
  ids.draft = await makeListing(sql, { siteId, userId: null, url: 'https://unpublished.example/' });
});

describe('claim by DNS TXT record', () => {
  test('instructions, failures with reasons, then verified: owner, history, mail to the earlier owner, verified badge', async () => {
    const slug = await slugOf(ids.dns);
    const made = await call('POST', '/claims', { slug, method: 'dns' }, 'owner', { 'idempotency-key': 'claim-dns' });
    expect(made.status).toBe(201);
    conforms(output('claim_listing'), made.body);
    const { dns: record } = made.body.instructions;
    expect(record).toMatchObject({ type: 'TXT', name: '_listing-directory.lumen-claims.example' });
    expect(record.value).toMatch(/^listing-directory-verification=[A-Za-z0-9_-]{32}$/);
    expect(made.body.status).toBe('pending');
    const id = made.body.id;

    let v = await call('POST', `/claims/${id}/verify`);
    expect(v.status).toBe(200);
    conforms(output('verify_claim'), v.body);
    expect(v.body).toMatchObject({ status: 'pending', last_check: { reason: 'dns_record_not_found' } });
    dns.txt.set(record.name, ['v=spf1 -all', 'listing-directory-verification=wrong']);
    v = await call('POST', `/claims/${id}/verify`);
    expect(v.body).toMatchObject({ status: 'pending', last_check: { reason: 'dns_record_mismatch' } });
    expect(dns.queries).toContain(record.name);
    expect((await call('GET', `/listings/${slug}/badges`)).body.items.map((b: any) => b.kind)).not.toContain('verified');

    dns.txt.set(record.name, ['v=spf1 -all', record.value]);
    v = await call('POST', `/claims/${id}/verify`);
    expect(v.body).toMatchObject({ status: 'verified', last_check: null });
    expect(v.body.verified_at).not.toBeNull();

    expect((await call('GET', `/me/listings/${ids.dns}`)).status).toBe(200);
    expect((await call('GET', `/me/listings/${ids.dns}`, undefined, 'other')).status).toBe(404);
    const history = await env.app.sql`select previous_user_id::text as prev, new_user_id::text as next from ownership_events where listing_id = ${ids.dns}`;
    expect([...history]).toEqual([{ prev: env.userIds.other, next: env.userIds.owner }]);
    const [mail] = await env.app.sql`select subject from mail_outbox where kind = 'listing_claimed' and to_address = 'other@example.com'`;
    expect(mail.subject).toContain('was claimed');
    const kinds = async () => (await env.app.json(`/listings/${slug}/badges`)).body.items.map((b: any) => b.kind) as string[];
    expect(await eventually(kinds, (k) => k.includes('verified'))).toContain('verified');

    // Verifying again answers the same; claiming what you own is a 409.
    expect((await call('POST', `/claims/${id}/verify`)).body.status).toBe('verified');
    const mine = await call('POST', '/claims', { slug, method: 'meta' });
    expect([mine.status, mine.body.code]).toEqual([409, 'already_owner']);
  });
});

describe('a DNS server that does not answer', () => {
  test('ends the check with dns_unavailable, not a 500 or a hang', async () => {
    const l = await makeListing(env.app.sql, { siteId: env.app.siteId, userId: null, url: 'https://quiet-dns.example/', status: 'live' });
    const made = await call('POST', '/claims', { slug: await slugOf(l), method: 'dns' }, 'other');
    dns.silent = true;
    try {
      const v = await call('POST', `/claims/${made.body.id}/verify`, undefined, 'other');
      expect([v.status, v.body.status, v.body.last_check?.reason]).toEqual([200, 'pending', 'dns_unavailable']);
    } finally {
      dns.silent = false;
    }
  }, 30_000);
});

describe('claim by meta tag and by file', () => {
  test('meta: not found until the tag is on the homepage', async () => {
    const made = await call('POST', '/claims', { slug: await slugOf(ids.meta), method: 'meta' });
    expect(made.status).toBe(201);
    expect(made.body.instructions.meta.tag).toMatch(/^<meta name="listing-directory-verification" content="[A-Za-z0-9_-]{32}">$/);
    site.home = page('<h1>Hello</h1>');
    expect((await call('POST', `/claims/${made.body.id}/verify`)).body.last_check.reason).toBe('meta_tag_not_found');
    site.home = page('<h1>Hello</h1>', made.body.instructions.meta.tag);
    expect((await call('POST', `/claims/${made.body.id}/verify`)).body.status).toBe('verified');
  });

  test("file: not found, then the wrong content, then verified; someone else's claim is a 404", async () => {
    const made = await call('POST', '/claims', { slug: await slugOf(ids.file), method: 'file' }, 'other');
    expect(made.status).toBe(201);
    const { file } = made.body.instructions;
    expect(file.path).toBe('/.well-known/listing-directory-verification.txt');
    expect(file.url).toBe(`${site.url}.well-known/listing-directory-verification.txt`);
    const verify = async () => (await call('POST', `/claims/${made.body.id}/verify`, undefined, 'other')).body;
    expect((await verify()).last_check.reason).toBe('file_not_found');
    site.files.set(file.path, 'listing-directory-verification=someone-else');
    expect((await verify()).last_check.reason).toBe('file_mismatch');
    site.files.set(file.path, `# ours\n${file.content}\n`);
    // Verification of someone else's claim is a 404, and changes nothing.
    expect((await call('POST', `/claims/${made.body.id}/verify`)).status).toBe(404);
    expect((await verify()).status).toBe('verified');
  });

  test('a homepage that is down, huge or redirects to a private address: a reason, never a 500', async () => {
    // Its own company (faulty.example), served from the loopback site.
    const l = await makeListing(env.app.sql, { siteId: env.app.siteId, userId: null, url: 'https://faulty.example/', status: 'live' });
    await env.app.sql`update listings set url = ${site.url} where id = ${l}`;
    const made = await call('POST', '/claims', { slug: await slugOf(l), method: 'meta' }, 'other');
    const cases: [OwnerSite['mode'], string][] = [
      ['error', 'site_error'],
      ['huge', 'site_too_large'],
      ['private_redirect', 'site_refused'],
    ];
    for (const [mode, reason] of cases) {
      site.mode = mode;
      const v = await call('POST', `/claims/${made.body.id}/verify`, undefined, 'other');
      expect([mode, v.status, v.body.status, v.body.last_check?.reason]).toEqual([mode, 200, 'pending', reason]);
    }
    site.mode = 'ok';
  });
});

describe('claim by e-mail', () => {
  test("only an address at the listing's domain; the link shows a button and only its POST verifies", async () => {
    const slug = await slugOf(ids.email);
    const bad: [unknown, string][] = [
      [{ slug, method: 'email' }, 'email'],
      [{ slug, method: 'email', email: 'ceo@gmail.com' }, 'email'],
      [{ slug, method: 'email', email: 'ceo@evilmail-claim.example' }, 'email'],
      [{ slug, method: 'email', email: 'not an address' }, 'email'],
      [{ slug, method: 'dns', email: 'ceo@mail-claim.example' }, 'email'],
      [{ slug, method: 'carrier-pigeon' }, 'method'],
      [{ slug: 'Bad Slug', method: 'dns' }, 'slug'],
      [{ slug, method: 'dns', extra: 1 }, 'extra'],
    ];
    for (const [body, field] of bad) {
      const res = await call('POST', '/claims', body);
      expect([res.status, JSON.stringify(body)]).toEqual([400, JSON.stringify(body)]);
      expect(res.body.errors.map((e: any) => e.field)).toContain(field);
    }
    expect((await call('POST', '/claims', { slug: 'no-such-listing', method: 'dns' })).status).toBe(404);
    expect((await call('POST', '/claims', { slug: await slugOf(ids.draft), method: 'dns' })).status).toBe(404);

    const made = await call('POST', '/claims', { slug, method: 'email', email: 'ceo@eu.mail-claim.example' });
    expect(made.status).toBe(201);
    expect(made.body.instructions.summary).toContain('We sent a link to ceo@eu.mail-claim.example');
    expect((await call('POST', `/claims/${made.body.id}/verify`)).body).toMatchObject({ status: 'pending', last_check: { reason: 'email_link_not_opened' } });
    const [mail] = await env.app.sql`select body_text from mail_outbox where kind = 'claim_link' and to_address = 'ceo@eu.mail-claim.example'`;
    const link = /https?:\/\/\S+\/claims\/confirm\/ldv_[A-Za-z0-9_-]{43}/.exec(mail.body_text)![0];

    const browser = new WebClient(env.app.url, env.app.fetch);
    const path = new URL(link).pathname;
    const shown = await browser.get(path);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('Confirm claim');
    expect((await call('GET', '/claims')).body.items.find((c: any) => c.id === made.body.id).status).toBe('pending');
    expect((await browser.post(path, { csrf: 'x'.repeat(43) })).status).toBe(403);
    const csrf = await browser.csrf(path);
    const done = await browser.post(path, { csrf });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Claim confirmed');
    expect((await call('GET', '/claims')).body.items.find((c: any) => c.id === made.body.id).status).toBe('verified');
    expect((await new WebClient(env.app.url, env.app.fetch).get('/claims/confirm/ldv_unknown')).status).toBe(404);
  });
});

describe('list_my_claims and expiry', () => {
  test('newest first, only mine; a pending claim past its time is expired and stays so', async () => {
    const made = await call('POST', '/claims', { slug: await slugOf(ids.email), method: 'file' }, 'other');
    expect(made.status).toBe(201);
    await env.app.sql`update claims set expires_at = now() - interval '1 second' where id = ${made.body.id}`;
    expect((await call('POST', `/claims/${made.body.id}/verify`, undefined, 'other')).body.status).toBe('expired');
    const list = await call('GET', '/claims', undefined, 'other');
    expect(list.status).toBe(200);
    conforms(output('list_my_claims'), list.body);
    expect(list.body.items[0]).toMatchObject({ id: made.body.id, status: 'expired' });
    const ownerIds = (await call('GET', '/claims', undefined, 'reader')).body.items.map((c: any) => c.id);
    expect(ownerIds).not.toContain(made.body.id);
    expect((await call('GET', '/claims?per_page=0')).status).toBe(400);
  });
});
