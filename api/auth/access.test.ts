import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { loadConfig } from '../../core/config.ts';
import { createApiKey, revokeApiKey } from '../../core/auth/api-keys.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { startEdge, type RunningEdge } from '../server.ts';
import { freePort, startTestApp, type TestApp } from '../../test/harness.ts';
import { testRedis } from '../../test/redis.ts';
import { operations } from '../registry/index.ts';
import { makeApiKey } from '../../test/builders.ts';

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
const mcpCall = (name: string, args: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

describe('credentials on REST and MCP', () => {
  let app: TestApp;
  let full: string;
  let ordersOnly: string;
  let revoked: string;
  beforeAll(async () => {
    app = await startTestApp();
    const ann = await findOrCreateUser(app.sql, 'ann@example.com');
    full = await makeApiKey(app.sql, ann, ['account:read', 'listings:write', 'orders:write'], 'all');
    ordersOnly = await makeApiKey(app.sql, ann, ['orders:write'], 'orders');
    const r = await createApiKey(app.sql, { userId: ann.id, name: 'gone', scopes: ['account:read'] });
    await revokeApiKey(app.sql, r.id);
    revoked = r.secret;
  });
  afterAll(() => app.stop());

  test('get_account names the person, the credential and what it opens', async () => {
    const { status, body, headers } = await app.json('/me', { headers: bearer(full) });
    expect(status).toBe(200);
    expect(body.user.email).toBe('ann@example.com');
    expect(body.credential).toMatchObject({ kind: 'api_key', name: 'all', scopes: ['account:read', 'listings:write', 'orders:write'] });
    expect(body.access.operations).toContain('get_account');
    expect(headers.get('cache-control')).toBe('no-store');
  });

  test('no credential: 401 with a challenge naming the resource metadata', async () => {
    const res = await app.get('/me');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${app.url}/.well-known/oauth-protected-resource/api/v1"`);
  });

  test('a credential without the scope: 403 insufficient_scope', async () => {
    const res = await app.get('/me', { headers: bearer(ordersOnly) });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="account:read"');
    expect((await res.json()).detail).toContain('account:read');
  });

  test('unknown, malformed and revoked credentials: 401 invalid_token, also on public reads', async () => {
    for (const auth of [`Bearer ldk_${'x'.repeat(43)}`, 'Bearer', 'Basic dXNlcjpwYXNz', `Bearer ${revoked}`, 'Bearer lda_unknown']) {
      for (const path of ['/me', '/site']) {
        const res = await app.get(path, { headers: { authorization: auth } });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
      }
    }
  });

  test('public reads accept a valid credential too', async () => {
    const res = await app.get('/site', { headers: bearer(ordersOnly) });
    expect(res.status).toBe(200);
  });

  test('MCP: an authenticated tool without a credential is an HTTP 401 with the /mcp metadata', async () => {
    const res = await fetch(`${app.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: mcpCall('get_account') });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${app.url}/.well-known/oauth-protected-resource/mcp"`);
    expect(await res.json()).toMatchObject({ status: 401, code: 'credential_required' });
  });

  test('MCP: public tools need no credential; an invalid one is refused on any request', async () => {
    const ok = await fetch(`${app.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: mcpCall('get_site_info') });
    expect(ok.status).toBe(200);
    const bad = await fetch(`${app.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...bearer(revoked) }, body: mcpCall('get_site_info') });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await bad.json()).toMatchObject({ status: 401, code: 'invalid_credential' });
  });

  test('MCP: an API key calls get_account; a key without the scope gets 403', async () => {
    const res = await fetch(`${app.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...bearer(full) }, body: mcpCall('get_account') });
    expect(res.status).toBe(200);
    const text = await res.text();
    const msg = JSON.parse(
      text.startsWith('{')
        ? text
        : text
            .split('\n')
            .find((l) => l.startsWith('data: '))!
            .slice(6),
    );
    expect(msg.result.structuredContent.user.email).toBe('ann@example.com');
    const denied = await fetch(`${app.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...bearer(ordersOnly) }, body: mcpCall('get_account') });
    expect(denied.status).toBe(403);
    expect(denied.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(await denied.json()).toMatchObject({ status: 403, code: 'insufficient_scope' });
  });

  test('every authenticated operation: 401 without a credential, 403 without its scope', async () => {
    const doc = (await app.json('/openapi.json')).body;
    const user = await findOrCreateUser(app.sql, 'matrix@example.com');
    const keyFor: Record<string, string> = {};
    for (const scope of ['account:read', 'listings:write', 'orders:write'] as const) {
      const others = (['account:read', 'listings:write', 'orders:write'] as const).filter((s) => s !== scope);
      keyFor[scope] = await makeApiKey(app.sql, user, [...others], `not ${scope}`);
    }
    let checked = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const scope = op['x-scope'] ?? op.security?.[0]?.bearer?.[0];
        if (!scope) continue;
        const url = path.replace(/\{[a-z_]+\}/g, (m) => (m.includes('id') && !m.includes('listing') ? '00000000-0000-4000-8000-000000000000' : '1'));
        const init = {
          method: method.toUpperCase(),
          headers: { 'content-type': 'application/json' } as Record<string, string>,
          body: method === 'get' || method === 'delete' ? undefined : '{}',
        };
        const anon = await app.get(url, init);
        expect([anon.status, op.operationId]).toEqual([401, op.operationId]);
        const wrong = await app.get(url, { ...init, headers: { ...init.headers, ...bearer(keyFor[scope]) } });
        expect([wrong.status, op.operationId]).toEqual([403, op.operationId]);
        checked++;
      }
    }
    expect(checked).toBe(operations.filter((o) => o.scope !== null).length);
  });
});

describe('rate limits', () => {
  test('an anonymous budget shared by two instances through Redis; 429 with Retry-After and the IETF headers', async () => {
    const redis = await testRedis();
    const env = {
      REDIS_URL: redis.url,
      RATE_LIMIT_ANONYMOUS_READS: '4',
      RATE_LIMIT_AUTHENTICATED_READS: '1000',
      RATE_LIMIT_WINDOW_SECONDS: '60',
      SITE_KEY: `rl-${process.pid}-${Date.now()}`,
    };
    const app = await startTestApp({ env });
    let second: RunningEdge | null = null;
    try {
      const port = await freePort();
      second = await startEdge(
        loadConfig({ PORT: String(port), HOST: '127.0.0.1', SITE_URL: app.config.siteUrl, LOG_LEVEL: 'silent', ...env }),
        app.databaseUrl,
      );
      const first = await fetch(`${app.api}/site`);
      expect(first.status).toBe(200);
      expect(first.headers.get('ratelimit-policy')).toBe('"anonymous_read";q=4;w=60');
      expect(first.headers.get('ratelimit')).toMatch(/^"anonymous_read";r=3;t=\d+$/);
      expect((await fetch(`${second.url}/api/v1/site`)).status).toBe(200);
      expect((await fetch(`${app.api}/categories`)).status).toBe(200);
      expect((await fetch(`${second.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: mcpCall('get_site_info') })).status).toBe(200);
      const refused = await fetch(`${second.url}/api/v1/site`);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('ratelimit')).toMatch(/^"anonymous_read";r=0;t=\d+$/);
      const body = await refused.json();
      expect(body.type).toBe(`${app.url}/problems/rate-limited`);
      expect((await fetch(`${app.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: mcpCall('get_site_info') })).status).toBe(429);
      // A credential has its own budget.
      const user = await findOrCreateUser(app.sql, 'rl@example.com');
      const key = await createApiKey(app.sql, { userId: user.id, name: 'k', scopes: ['account:read'] });
      const authed = await fetch(`${app.api}/me`, { headers: bearer(key.secret) });
      expect(authed.status).toBe(200);
      expect(authed.headers.get('ratelimit-policy')).toBe('"authenticated_read";q=1000;w=60');
    } finally {
      await second?.stop();
      await app.stop();
      await redis.stop();
    }
  });
});
