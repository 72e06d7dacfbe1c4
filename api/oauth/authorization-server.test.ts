import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { hashSecret } from '../../core/auth/secrets.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { answerConsent, consentAndFollow, openConsent, pkcePair, signedInCookie } from '../../test/oauth-kit.ts';

const REDIRECT = 'http://127.0.0.1:47123/callback';
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
const GET_ACCOUNT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_account', arguments: {} } });

let app: TestApp;
let cookie: string;
beforeAll(async () => {
  // This file registers many clients from one address; the hourly cap has its own test (register-limit.test.ts).
  app = await startTestApp({ env: { ALLOW_LOOPBACK_FETCH: 'true', OAUTH_REGISTRATIONS_PER_HOUR: '1000' } });
  cookie = await signedInCookie(app.sql, 'owner@example.com');
});
afterAll(() => app.stop());

async function register(meta: Record<string, unknown> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${app.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test agent', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], ...meta }),
  });
  return { status: res.status, body: await res.json() };
}

async function publicClient(meta: Record<string, unknown> = {}): Promise<string> {
  const r = await register(meta);
  expect(r.status).toBe(201);
  return r.body.client_id;
}

function authorizeUrl(clientId: string, challenge: string, extra: Record<string, string | null> = {}): string {
  const u = new URL(`${app.url}/oauth/authorize`);
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-123',
    scope: 'account:read',
    resource: `${app.url}/mcp`,
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v);
  return u.href;
}

async function token(params: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${app.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** Consent and code exchange for a fresh authorization; returns the tokens. */
async function authorize(clientId: string, extra: Record<string, string | null> = {}) {
  const pkce = pkcePair();
  const back = await consentAndFollow(app.url, authorizeUrl(clientId, pkce.challenge, extra), cookie);
  const code = back.searchParams.get('code')!;
  return { code, pkce, back };
}

async function tokensFor(clientId: string, scope = 'account:read') {
  const { code, pkce } = await authorize(clientId, { scope });
  const t = await token({
    grant_type: 'authorization_code',
    code,
    code_verifier: pkce.verifier,
    redirect_uri: REDIRECT,
    client_id: clientId,
    resource: `${app.url}/mcp`,
  });
  expect(t.status).toBe(200);
  return t.body as { access_token: string; refresh_token: string; scope: string; expires_in: number; token_type: string };
}

const mcpStatus = async (accessToken: string) =>
  (await fetch(`${app.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${accessToken}` }, body: GET_ACCOUNT })).status;

describe('discovery', () => {
  test('401 from an MCP tool names the resource metadata, which leads to the authorization server metadata', async () => {
    const res = await fetch(`${app.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: GET_ACCOUNT });
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1];
    expect(metadataUrl).toBe(`${app.url}/.well-known/oauth-protected-resource/mcp`);
    const prm = await fetch(metadataUrl);
    expect(prm.status).toBe(200);
    expect(prm.headers.get('access-control-allow-origin')).toBe('*');
    expect(await prm.json()).toEqual({
      resource: `${app.url}/mcp`,
      authorization_servers: [app.url],
      scopes_supported: ['account:read', 'listings:write', 'orders:write'],
      bearer_methods_supported: ['header'],
      resource_name: expect.stringContaining('MCP server'),
      resource_documentation: `${app.url}/docs`,
    });
    const as = await (await fetch(`${app.url}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: app.url,
      authorization_endpoint: `${app.url}/oauth/authorize`,
      token_endpoint: `${app.url}/oauth/token`,
      registration_endpoint: `${app.url}/oauth/register`,
      revocation_endpoint: `${app.url}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
  });

  test("the REST API has its own resource metadata; the root document is the MCP server's; no OpenID configuration", async () => {
    const rest = await (await fetch(`${app.url}/.well-known/oauth-protected-resource/api/v1`)).json();
    expect(rest.resource).toBe(`${app.url}/api/v1`);
    expect(rest.authorization_servers).toEqual([app.url]);
    const root = await (await fetch(`${app.url}/.well-known/oauth-protected-resource`)).json();
    expect(root.resource).toBe(`${app.url}/mcp`);
    expect((await fetch(`${app.url}/.well-known/openid-configuration`)).status).toBe(404);
    const pre = await fetch(`${app.url}/oauth/token`, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toContain('Content-Type');
  });
});

describe('dynamic client registration', () => {
  test('a public client by default; its metadata comes back as registered', async () => {
    const r = await register({ client_uri: 'https://agent.example/', scope: 'account:read openid', software_id: 'agent' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      client_name: 'Test agent',
      scope: 'account:read',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    expect(r.body.client_secret).toBeUndefined();
    expect(typeof r.body.client_id_issued_at).toBe('number');
  });

  test('redirect URIs: https, loopback http and reverse-domain app schemes only; bad metadata is refused', async () => {
    expect((await register({ redirect_uris: ['com.example.agent:/oauth/callback', 'https://agent.example/cb', 'http://localhost:8080/cb'] })).status).toBe(201);
    for (const uri of ['http://agent.example/cb', 'javascript:alert(1)', 'https://agent.example/cb#frag', 'myapp:/cb', 'https://user:pw@agent.example/cb']) {
      const r = await register({ redirect_uris: [uri] });
      expect([uri, r.status, r.body.error]).toEqual([uri, 400, 'invalid_redirect_uri']);
    }
    expect((await register({ redirect_uris: [] })).body.error).toBe('invalid_redirect_uri');
    expect((await register({ redirect_uris: undefined })).body.error).toBe('invalid_redirect_uri');
    expect((await register({ grant_types: ['client_credentials'] })).body.error).toBe('invalid_client_metadata');
    expect((await register({ token_endpoint_auth_method: 'private_key_jwt' })).body.error).toBe('invalid_client_metadata');
    expect((await register({ client_name: 'x'.repeat(201) })).body.error).toBe('invalid_client_metadata');
    const notJson = await fetch(`${app.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
    expect(notJson.status).toBe(400);
    const huge = await fetch(`${app.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'x'.repeat(20_000) }),
    });
    expect(huge.status).toBe(413);
  });

  test('a confidential client gets a secret once and must authenticate with it at the token endpoint', async () => {
    const r = await register({ token_endpoint_auth_method: 'client_secret_basic' });
    expect(r.status).toBe(201);
    expect(r.body.client_secret).toMatch(/^ldcs_/);
    expect(r.body.client_secret_expires_at).toBe(0);
    const { client_id: id, client_secret: secret } = r.body;
    const { code, pkce } = await authorize(id);
    const base = { grant_type: 'authorization_code', code, code_verifier: pkce.verifier, redirect_uri: REDIRECT };
    const noSecret = await token({ ...base, client_id: id });
    expect(noSecret.status).toBe(401);
    expect(noSecret.body.error).toBe('invalid_client');
    const wrong = await token(base, { authorization: `Basic ${btoa(`${id}:wrong`)}` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('Basic');
    // A failed client authentication does not touch the code.
    const ok = await token(base, { authorization: `Basic ${btoa(`${id}:${secret}`)}` });
    expect(ok.status).toBe(200);
    expect(ok.body.access_token).toMatch(/^lda_/);
  });
});

describe('authorization endpoint', () => {
  test('a person who is not signed in is sent to sign in, and comes back to this very request', async () => {
    const id = await publicClient();
    const url = authorizeUrl(id, pkcePair().challenge);
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const u = new URL(url);
    expect(res.headers.get('location')).toBe(`${app.url}/sign-in?return_to=${encodeURIComponent(u.pathname + u.search)}`);
  });

  test('the consent page shows the app, where it returns, the scopes, and Allow access / Deny', async () => {
    const id = await publicClient({ client_name: 'Helpful <Agent>', client_uri: 'https://helpful.example/about' });
    const page = await openConsent(authorizeUrl(id, pkcePair().challenge, { scope: 'account:read orders:write' }), cookie);
    expect(page.status).toBe(200);
    // The client's own name is text: its < is escaped, so it can never open a tag (Preact leaves > as is).
    expect(page.html).toContain('Helpful &lt;Agent>');
    expect(page.html).not.toContain('<Agent>');
    expect(page.html).toContain('helpful.example');
    expect(page.html).toContain(`<code id="redirect-uri">${REDIRECT}</code>`);
    expect(page.html).toContain('Read your account, drafts, listings, claims and orders');
    expect(page.html).toContain('Price orders and start checkouts');
    expect(page.html).not.toContain('Create and change your drafts');
    expect(page.html).toContain('>Allow access</button>');
    expect(page.html).toContain('>Deny</button>');
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:47123;");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // Without the CSRF token the answer is refused.
    const forged = await answerConsent(app.url, cookie, { ...page, csrf: 'x'.repeat(43) }, 'allow');
    expect(forged.status).toBe(403);
    expect(forged.headers.get('location')).toBeNull();
    // The request carried by the form is checked again: a swapped redirect URI is not followed.
    const swapped = page.authorizationRequest.replace(encodeURIComponent(REDIRECT), encodeURIComponent('https://attacker.example/cb'));
    expect(swapped).not.toBe(page.authorizationRequest);
    const tampered = await answerConsent(app.url, cookie, { ...page, authorizationRequest: swapped }, 'allow');
    expect(tampered.status).toBe(400);
    expect(tampered.headers.get('location')).toBeNull();
  });

  test('an unknown client or a redirect URI that was not registered is an error page, never a redirect', async () => {
    const id = await publicClient();
    const challenge = pkcePair().challenge;
    for (const bad of [`${REDIRECT}/evil`, `${REDIRECT}x`, 'http://127.0.0.1:47123/', 'https://attacker.example/callback', 'http://localhost:47123/callback']) {
      const res = await fetch(authorizeUrl(id, challenge, { redirect_uri: bad }), { headers: { cookie }, redirect: 'manual' });
      expect([bad, res.status, res.headers.get('location')]).toEqual([bad, 400, null]);
      expect(await res.text()).toContain('not one the app registered');
    }
    const unknown = await fetch(authorizeUrl('00000000-0000-4000-8000-000000000000', challenge), { headers: { cookie }, redirect: 'manual' });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('location')).toBeNull();
    // The one exception (OAuth 2.1, RFC 8252): a loopback IP redirect URI may use another port.
    const otherPort = await openConsent(authorizeUrl(id, challenge, { redirect_uri: 'http://127.0.0.1:50001/callback' }), cookie);
    expect(otherPort.status).toBe(200);
  });

  test('PKCE S256 is required: plain or no challenge goes back to the app as invalid_request', async () => {
    const id = await publicClient();
    const pkce = pkcePair();
    const cases: Record<string, string | null>[] = [
      { code_challenge_method: 'plain', code_challenge: pkce.verifier },
      { code_challenge_method: null },
      { code_challenge: null },
    ];
    for (const extra of cases) {
      const res = await fetch(authorizeUrl(id, pkce.challenge, extra), { headers: { cookie }, redirect: 'manual' });
      expect(res.status).toBe(302);
      const loc = new URL(res.headers.get('location')!);
      expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
      expect(loc.searchParams.get('error')).toBe('invalid_request');
      expect(loc.searchParams.get('state')).toBe('st-123');
      expect(loc.searchParams.get('iss')).toBe(app.url);
    }
  });

  test('unknown scopes, response types and resources are refused back to the app', async () => {
    const id = await publicClient();
    const challenge = pkcePair().challenge;
    const errorOf = async (extra: Record<string, string>) => {
      const res = await fetch(authorizeUrl(id, challenge, extra), { headers: { cookie }, redirect: 'manual' });
      return new URL(res.headers.get('location')!).searchParams.get('error');
    };
    expect(await errorOf({ scope: 'account:read admin' })).toBe('invalid_scope');
    expect(await errorOf({ response_type: 'token' })).toBe('unsupported_response_type');
    expect(await errorOf({ resource: 'https://elsewhere.example/mcp' })).toBe('invalid_target');
    // A client that registered for fewer scopes cannot ask for more.
    const narrow = await publicClient({ scope: 'account:read' });
    const res = await fetch(authorizeUrl(narrow, challenge, { scope: 'orders:write' }), { headers: { cookie }, redirect: 'manual' });
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
  });

  test('offline_access is ignored (refresh tokens follow the registered grant types)', async () => {
    const id = await publicClient();
    const t = await tokensFor(id, 'account:read offline_access');
    expect(t.scope).toBe('account:read');
    expect(t.refresh_token).toMatch(/^ldr_/);
    const noRefresh = await publicClient({ grant_types: ['authorization_code'] });
    const t2 = await tokensFor(noRefresh);
    expect(t2.refresh_token).toBeUndefined();
    const refused = await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: noRefresh });
    expect(refused.body.error).toBe('unauthorized_client');
  });

  test('Deny sends access_denied with state and iss', async () => {
    const id = await publicClient();
    const back = await consentAndFollow(app.url, authorizeUrl(id, pkcePair().challenge), cookie, 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.get('iss')).toBe(app.url);
    expect(back.searchParams.get('code')).toBeNull();
  });

  test('Allow without scope or resource: the scopes the client registered for, at the MCP server', async () => {
    const id = await publicClient({ scope: 'account:read listings:write' });
    const { code, pkce } = await authorize(id, { scope: null, resource: null });
    const t = await token({ grant_type: 'authorization_code', code, code_verifier: pkce.verifier, redirect_uri: REDIRECT, client_id: id });
    expect(t.status).toBe(200);
    expect(t.body.scope).toBe('account:read listings:write');
    expect(await mcpStatus(t.body.access_token)).toBe(200);
  });
});

describe('token endpoint', () => {
  test('a token response per RFC 6749, never cached', async () => {
    const id = await publicClient();
    const { code, pkce } = await authorize(id);
    const t = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: pkce.verifier,
      redirect_uri: REDIRECT,
      client_id: id,
      resource: `${app.url}/mcp`,
    });
    expect(t.status).toBe(200);
    expect(t.headers.get('cache-control')).toBe('no-store');
    expect(t.headers.get('ratelimit-policy')).toContain('anonymous_read');
    expect(t.body).toEqual({
      access_token: expect.stringMatching(/^lda_/),
      refresh_token: expect.stringMatching(/^ldr_/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'account:read',
    });
    expect(await mcpStatus(t.body.access_token)).toBe(200);
    expect((await token({ grant_type: 'password', client_id: id })).body.error).toBe('unsupported_grant_type');
    const anonymous = await token({ grant_type: 'authorization_code', code: 'ldc_x', code_verifier: pkce.verifier });
    expect([anonymous.status, anonymous.body.error]).toEqual([401, 'invalid_client']);
  });

  test('a wrong code_verifier, redirect_uri or client is invalid_grant', async () => {
    const id = await publicClient();
    const other = await publicClient();
    const cases: [Record<string, string>, string][] = [
      [{ code_verifier: pkcePair().verifier }, 'code_verifier'],
      [{ redirect_uri: 'http://127.0.0.1:47123/other' }, 'redirect_uri'],
      [{ client_id: other }, 'another client'],
    ];
    for (const [change, message] of cases) {
      const { code, pkce } = await authorize(id);
      const t = await token({ grant_type: 'authorization_code', code, code_verifier: pkce.verifier, redirect_uri: REDIRECT, client_id: id, ...change });
      expect([t.status, t.body.error]).toEqual([400, 'invalid_grant']);
      expect(t.body.error_description).toContain(message);
    }
    const { code, pkce } = await authorize(id);
    const wrongResource = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: pkce.verifier,
      redirect_uri: REDIRECT,
      client_id: id,
      resource: `${app.url}/api/v1`,
    });
    expect(wrongResource.body.error).toBe('invalid_target');
  });

  test('a code works once; using it again revokes the tokens issued from it', async () => {
    const id = await publicClient();
    const { code, pkce } = await authorize(id);
    const params = { grant_type: 'authorization_code', code, code_verifier: pkce.verifier, redirect_uri: REDIRECT, client_id: id };
    const first = await token(params);
    expect(first.status).toBe(200);
    expect(await mcpStatus(first.body.access_token)).toBe(200);
    const again = await token(params);
    expect([again.status, again.body.error]).toEqual([400, 'invalid_grant']);
    expect(again.body.error_description).toContain('already used');
    expect(await mcpStatus(first.body.access_token)).toBe(401);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: id });
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  test('an expired code is refused', async () => {
    const id = await publicClient();
    const { code, pkce } = await authorize(id);
    await app.sql`update oauth_codes set expires_at = now() - interval '1 second' where code_hash = ${hashSecret(code)}`;
    const t = await token({ grant_type: 'authorization_code', code, code_verifier: pkce.verifier, redirect_uri: REDIRECT, client_id: id });
    expect([t.status, t.body.error]).toEqual([400, 'invalid_grant']);
    expect(t.body.error_description).toContain('expired');
  });

  test('refresh rotates; an old refresh token presented again revokes the whole grant', async () => {
    const id = await publicClient();
    const first = await tokensFor(id, 'account:read orders:write');
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: id });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.scope).toBe('account:read orders:write');
    expect(await mcpStatus(second.body.access_token)).toBe(200);
    // Narrowing on refresh: the access token gets fewer scopes, the refresh token keeps them all.
    const narrow = await token({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token, client_id: id, scope: 'orders:write' });
    expect(narrow.body.scope).toBe('orders:write');
    expect(await mcpStatus(narrow.body.access_token)).toBe(403);
    const wider = await token({ grant_type: 'refresh_token', refresh_token: narrow.body.refresh_token, client_id: id, scope: 'listings:write' });
    expect(wider.body.error).toBe('invalid_scope');
    // Reuse of the first (already rotated) refresh token: everything of the grant stops working.
    const reuse = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: id });
    expect([reuse.status, reuse.body.error]).toEqual([400, 'invalid_grant']);
    expect(await mcpStatus(second.body.access_token)).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: narrow.body.refresh_token, client_id: id })).body.error).toBe('invalid_grant');
  });

  test('a refresh token works only for its own client', async () => {
    const id = await publicClient();
    const other = await publicClient();
    const t = await tokensFor(id);
    const stolen = await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: other });
    expect(stolen.body.error).toBe('invalid_grant');
    // Not counted as reuse: the owner can still refresh.
    expect((await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: id })).status).toBe(200);
  });
});

describe('revocation', () => {
  const revoke = async (params: Record<string, string>) =>
    fetch(`${app.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params) });

  test('an access token alone, or a refresh token with its whole grant; unknown tokens answer 200', async () => {
    const id = await publicClient();
    const a = await tokensFor(id);
    const b = await tokensFor(id);
    expect((await revoke({ token: a.access_token, client_id: id })).status).toBe(200);
    expect(await mcpStatus(a.access_token)).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: a.refresh_token, client_id: id })).status).toBe(200);

    expect((await revoke({ token: b.refresh_token, token_type_hint: 'refresh_token', client_id: id })).status).toBe(200);
    expect(await mcpStatus(b.access_token)).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: b.refresh_token, client_id: id })).body.error).toBe('invalid_grant');

    expect((await revoke({ token: 'lda_unknown', client_id: id })).status).toBe(200);
    const other = await publicClient();
    const c = await tokensFor(id);
    const foreign = await revoke({ token: c.access_token, client_id: other });
    expect(foreign.status).toBe(400);
    expect(await mcpStatus(c.access_token)).toBe(200);
  });

  test('a person sees connected apps and revokes one on /account/connections', async () => {
    const id = await publicClient({ client_name: 'Connections Agent' });
    const t = await tokensFor(id);
    expect(await mcpStatus(t.access_token)).toBe(200);
    const res = await fetch(`${app.url}/account/connections`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Connections Agent');
    const grantId = [...html.matchAll(/data-grant-id="(\d+)"><td>Connections Agent/g)][0][1];
    const csrfCookie = /(csrf=[^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? '';
    const csrf = /name="csrf" value="([^"]*)"/.exec(html)![1];
    // Someone else's session cannot revoke it.
    const stranger = await signedInCookie(app.sql, 'stranger@example.com');
    const post = (who: string) =>
      fetch(`${app.url}/account/connections/${grantId}/revoke`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: `${who}; ${csrfCookie}`, 'content-type': 'application/x-www-form-urlencoded', origin: app.url },
        body: new URLSearchParams({ csrf }),
      });
    expect((await post(stranger)).status).toBe(303);
    expect(await mcpStatus(t.access_token)).toBe(200);
    const done = await post(cookie);
    expect(done.status).toBe(303);
    expect(await mcpStatus(t.access_token)).toBe(401);
    expect(await (await fetch(`${app.url}/account/connections`, { headers: { cookie } })).text()).not.toContain('Connections Agent');
  });
});

describe('client ID metadata documents', () => {
  // ALLOW_LOOPBACK_FETCH=true here, so plain http on 127.0.0.1 is accepted as a test stand-in for https.
  let server: ReturnType<typeof Bun.serve>;
  const docs = new Map<string, (url: string) => Response>();
  let hits = 0;
  beforeAll(() => {
    server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch(req) {
        hits++;
        const u = new URL(req.url);
        const d = docs.get(u.pathname);
        return d ? d(`${u.origin}${u.pathname}`) : new Response('no', { status: 404 });
      },
    });
  });
  afterAll(() => server.stop(true));
  const doc = (path: string, make: (url: string) => Response) => {
    docs.set(path, make);
    return `http://127.0.0.1:${server.port}${path}`;
  };
  const good = (url: string, extra: Record<string, unknown> = {}) =>
    Response.json({ client_id: url, client_name: 'Doc Agent', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], ...extra });

  const pageFor = async (clientId: string) => {
    const res = await fetch(authorizeUrl(clientId, pkcePair().challenge), { headers: { cookie }, redirect: 'manual' });
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  };

  test('a good document: consent, code, tokens; the copy is cached', async () => {
    const id = doc('/good.json', (u) => good(u));
    const before = hits;
    const t = await tokensFor(id);
    expect(await mcpStatus(t.access_token)).toBe(200);
    expect(hits - before).toBe(1);
  });

  test('refused: another client_id, too large, not JSON, a secret, an unlisted redirect URI, a redirect, a 404', async () => {
    const cases: [string, string][] = [
      [doc('/mismatch.json', () => good('https://someone-else.example/client.json')), 'different client_id'],
      [doc('/big.json', (u) => good(u, { padding: 'x'.repeat(6000) })), 'larger than 5120 bytes'],
      [doc('/html.json', () => new Response('<html>hi</html>')), 'not valid JSON'],
      [doc('/secret.json', (u) => good(u, { client_secret: 's', token_endpoint_auth_method: 'client_secret_post' })), 'public client'],
      [doc('/other-redirect.json', (u) => good(u, { redirect_uris: ['https://agent.example/cb'] })), 'not one the app registered'],
      [doc('/moved.json', () => Response.redirect('https://agent.example/client.json', 302)), 'answered with a redirect'],
      [`http://127.0.0.1:${server.port}/missing.json`, 'HTTP 404'],
      [`http://127.0.0.1:${server.port}/`, 'must have a path'],
      [`http://127.0.0.1:${server.port}/a/../good.json`, 'canonical form'],
    ];
    for (const [clientId, message] of cases) {
      const r = await pageFor(clientId);
      expect([clientId, r.status, r.location]).toEqual([clientId, 400, null]);
      expect([clientId, r.html]).toEqual([clientId, expect.stringContaining(message)]);
    }
  });
});

describe('client ID metadata documents in production (no ALLOW_LOOPBACK_FETCH)', () => {
  let prod: TestApp;
  let server: ReturnType<typeof Bun.serve>;
  beforeAll(async () => {
    prod = await startTestApp();
    server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: (req) => Response.json({ client_id: req.url, client_name: 'Local', redirect_uris: [REDIRECT] }),
    });
  });
  afterAll(async () => {
    server.stop(true);
    await prod.stop();
  });

  test('private and loopback addresses are refused, and plain http is refused', async () => {
    const prodCookie = await signedInCookie(prod.sql, 'prod@example.com');
    const cases: [string, string][] = [
      [`http://127.0.0.1:${server.port}/client.json`, 'must use https'],
      [`https://127.0.0.1:${server.port}/client.json`, 'not on a public address'],
      ['https://10.1.2.3/client.json', 'not on a public address'],
      ['https://[::1]/client.json', 'not on a public address'],
      ['https://localhost/client.json', 'not on a public address'],
    ];
    for (const [clientId, message] of cases) {
      const u = new URL(`${prod.url}/oauth/authorize`);
      u.search = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      }).toString();
      const res = await fetch(u, { headers: { cookie: prodCookie }, redirect: 'manual' });
      expect([clientId, res.status, res.headers.get('location')]).toEqual([clientId, 400, null]);
      expect([clientId, await res.text()]).toEqual([clientId, expect.stringContaining(message)]);
    }
    expect((await prod.sql`select count(*)::int as n from oauth_clients`)[0].n).toBe(0);
  });
});
