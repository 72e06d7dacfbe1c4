import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createApiKey } from '../../core/auth/api-keys.ts';
import { hashSecret } from '../../core/auth/secrets.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { signInWithClient, WebClient } from '../../test/browser.ts';
import { MAX_ACTIVE_KEYS } from './api-keys.tsx';

let app: TestApp;
let alice: WebClient;
let bob: WebClient;
beforeAll(async () => {
  app = await startTestApp({ socket: false });
  alice = new WebClient(app.url, app.fetch);
  bob = new WebClient(app.url, app.fetch);
  await signInWithClient(alice, app.sql, 'alice@example.test');
  await signInWithClient(bob, app.sql, 'bob@example.test');
});
afterAll(() => app.stop());

const me = (secret: string) => app.fetch(`${app.api}/me`, { headers: { authorization: `Bearer ${secret}` } });
const keyCount = async (email: string) =>
  (await app.sql`select count(*)::int as n from api_keys k join users u on u.id = k.user_id where u.email = ${email}`)[0].n as number;

/** Creates a key through the page; returns the response, its HTML and the secret shown. */
async function createKey(c: WebClient, fields: Record<string, string | string[]>) {
  const res = await c.post('/account/api-keys', { csrf: await c.csrf('/account/api-keys'), ...fields });
  const page = await res.text();
  const secret = /<code id="new-key-secret">([^<]+)<\/code>/.exec(page)?.[1] ?? null;
  return { res, page, secret };
}

describe('signed out', () => {
  test('the page and its forms send you to sign in and back', async () => {
    const anon = new WebClient(app.url, app.fetch);
    const res = await anon.get('/account/api-keys');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${app.url}/sign-in?return_to=%2Faccount%2Fapi-keys`);
    const csrf = await anon.csrf('/sign-in');
    const post = await anon.post('/account/api-keys', { csrf, name: 'x', scopes: 'account:read' });
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe(`${app.url}/sign-in?return_to=%2Faccount%2Fapi-keys`);
    expect((await anon.post('/account/api-keys/1/revoke', { csrf })).status).toBe(303);
  });
});

describe('the API keys page', () => {
  test('shows an empty list and a form with a checkbox per scope', async () => {
    const res = await alice.get('/account/api-keys');
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('You have no API keys yet');
    for (const s of ['account:read', 'listings:write', 'orders:write']) expect(page).toContain(`name="scopes" value="${s}"`);
    expect(page).toContain('name="name" required maxlength="100"');
  });

  test('form errors re-show the form with a message (400) and create nothing', async () => {
    const cases: [Record<string, string | string[]>, string][] = [
      [{ name: '', scopes: 'account:read' }, 'Give the key a name'],
      [{ name: '   ', scopes: 'account:read' }, 'Give the key a name'],
      [{ name: 'n'.repeat(101), scopes: 'account:read' }, 'at most 100 characters'],
      [{ name: 'no scopes' }, 'Choose at least one scope'],
      [{ name: 'bad scope', scopes: ['account:read', 'admin:all'] }, 'Unknown scope: admin:all'],
      [{ name: 'bell\u0007', scopes: 'account:read' }, 'control characters'],
    ];
    for (const [fields, message] of cases) {
      const { res, page, secret } = await createKey(alice, fields);
      expect(res.status).toBe(400);
      expect(page).toContain(message);
      expect(secret).toBeNull();
    }
    // What was typed and ticked is kept.
    const { page } = await createKey(alice, { name: 'keep me', scopes: ['orders:write', 'nope'] });
    expect(page).toContain('value="keep me"');
    expect(page).toContain('value="orders:write" checked');
    expect(page).not.toContain('value="account:read" checked');
    expect(await keyCount('alice@example.test')).toBe(0);
  });

  test('a name of exactly 100 characters (any script) is fine', async () => {
    const { res } = await createKey(alice, { name: 'ü'.repeat(100), scopes: 'account:read' });
    expect(res.status).toBe(201);
  });

  test('creating needs the CSRF token and this site as origin', async () => {
    const before = await keyCount('alice@example.test');
    expect((await alice.post('/account/api-keys', { name: 'sneaky', scopes: 'account:read' })).status).toBe(403);
    const csrf = await alice.csrf('/account/api-keys');
    expect((await alice.post('/account/api-keys', { csrf, name: 'sneaky', scopes: 'account:read' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect(await keyCount('alice@example.test')).toBe(before);
  });

  test('creates a key, shows its secret once, stores only the hash; the key works as Bearer', async () => {
    const { res, page, secret } = await createKey(alice, { name: 'CI deploys', scopes: ['listings:write', 'account:read'] });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(secret).toMatch(/^ldk_[A-Za-z0-9_-]{43}$/);
    expect(page).toContain('it will not be shown again');

    const [row] = await app.sql`select id::text, name, scopes, secret_hash, prefix from api_keys where name = 'CI deploys'`;
    expect(row.secret_hash).toBe(hashSecret(secret!));
    expect(row.scopes).toEqual(['account:read', 'listings:write']);
    expect(secret!.startsWith(row.prefix)).toBe(true);
    const stored = JSON.stringify(await app.sql`select * from api_keys`, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    expect(stored).not.toContain(secret!);

    const list = await (await alice.get('/account/api-keys')).text();
    expect(list).not.toContain(secret!);
    expect(list).toContain('CI deploys');
    expect(list).toContain('account:read, listings:write');
    expect(list).toMatch(new RegExp(`<tr data-key-id="${row.id}">[\\s\\S]*?never[\\s\\S]*?active`));

    const who = await me(secret!);
    expect(who.status).toBe(200);
    const body = await who.json();
    expect(body.user.email).toBe('alice@example.test');
    expect(body.credential).toMatchObject({ kind: 'api_key', name: 'CI deploys', scopes: ['account:read', 'listings:write'] });
    // Now it has been used.
    const used = await (await alice.get('/account/api-keys')).text();
    expect(used).toMatch(new RegExp(`<tr data-key-id="${row.id}">[\\s\\S]*?<time[^>]*>[^<]*</time></td><td><time`));
  });

  test("revoking: another person's key is a 404, your own stops working (401)", async () => {
    const { secret } = await createKey(alice, { name: 'to revoke', scopes: ['account:read', 'orders:write'] });
    const [row] = await app.sql`select id::text from api_keys where name = 'to revoke'`;
    expect((await me(secret!)).status).toBe(200);

    // Bob cannot revoke it, nor learn whether it exists.
    const bobTry = await bob.post(`/account/api-keys/${row.id}/revoke`, { csrf: await bob.csrf('/account/api-keys') });
    expect(bobTry.status).toBe(404);
    const missing = await bob.post('/account/api-keys/99999999/revoke', { csrf: await bob.csrf('/account/api-keys') });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe(await (await bob.post(`/account/api-keys/${row.id}/revoke`, { csrf: await bob.csrf('/account/api-keys') })).text());
    expect((await bob.post('/account/api-keys/abc/revoke', { csrf: await bob.csrf('/account/api-keys') })).status).toBe(404);
    expect((await me(secret!)).status).toBe(200);

    // Alice's revoke needs the CSRF token.
    expect((await alice.post(`/account/api-keys/${row.id}/revoke`, {})).status).toBe(403);
    expect((await me(secret!)).status).toBe(200);

    const res = await alice.post(`/account/api-keys/${row.id}/revoke`, { csrf: await alice.csrf('/account/api-keys') });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${app.url}/account/api-keys?revoked=${row.id}`);
    const page = await (await alice.get(res.headers.get('location')!)).text();
    expect(page).toContain('The key &quot;to revoke&quot; is revoked');
    expect(page).toMatch(new RegExp(`<tr data-key-id="${row.id}">[\\s\\S]*?revoked <time`));
    expect(page).not.toContain(`action="/account/api-keys/${row.id}/revoke"`);

    const after = await me(secret!);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // Revoking again is harmless.
    expect((await alice.post(`/account/api-keys/${row.id}/revoke`, { csrf: await alice.csrf('/account/api-keys') })).status).toBe(303);
  });

  test('each person sees only their own keys', async () => {
    const page = await (await bob.get('/account/api-keys')).text();
    expect(page).toContain('You have no API keys yet');
    expect(page).not.toContain('CI deploys');
  });

  test(`at most ${MAX_ACTIVE_KEYS} active keys`, async () => {
    const user = await findOrCreateUser(app.sql, 'bob@example.test');
    for (let i = 0; i < MAX_ACTIVE_KEYS; i++) await createApiKey(app.sql, { userId: user.id, name: `bulk ${i}`, scopes: ['account:read'] });
    const { res, page } = await createKey(bob, { name: 'one too many', scopes: 'account:read' });
    expect(res.status).toBe(400);
    expect(page).toContain('revoke one before creating another');
  });
});
