import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type AnyElysia, Elysia } from 'elysia';
import pino from 'pino';
import { createApiKey } from '../core/auth/api-keys.ts';
import { findOrCreateUser } from '../core/auth/users.ts';
import { loadConfig } from '../core/config.ts';
import { ensureSite } from '../sql/site.ts';
import { freshDatabase } from '../test/db.ts';
import { badgesPlugin } from './badges/mount.ts';
import type { AppDeps } from './deps.ts';
import { createCache } from './http/cache.ts';
import { createRateLimiter } from './http/rate-limit.ts';
import { restPlugin } from './http/rest-plugin.ts';
import { healthPlugin, problemPagesPlugin } from './http/service-pages.ts';
import { mcpPlugin } from './mcp/mount.ts';
import { oauthPlugin } from './oauth/mount.ts';
import { openApiPlugin } from './openapi/mount.ts';
import { botPagePlugin } from './site/bot-page.tsx';
import { sitePlugin } from './site/mount.ts';

// Each area of the edge is an Elysia instance of its own: mounted alone on a bare app (no error
// handler, no other area), it answers its own routes.

const SITE_URL = 'http://127.0.0.1:9';
let db: Awaited<ReturnType<typeof freshDatabase>>;
let deps: AppDeps;

beforeAll(async () => {
  db = await freshDatabase();
  const config = loadConfig({ SITE_URL, LOG_LEVEL: 'silent' });
  const site = await ensureSite(db.sql, config.siteKey, config.siteUrl);
  const log = pino({ level: 'silent' });
  deps = {
    config,
    sql: db.sql,
    site,
    log,
    cache: createCache({ ttlSeconds: 0, redisUrl: null, initialGeneration: 0 }),
    limiter: createRateLimiter({ limits: config.rateLimits, redisUrl: null, log }),
  };
}, 60_000);
afterAll(async () => {
  await deps?.cache.close();
  await deps?.limiter.close();
  await db?.drop();
});

const alone = (plugin: AnyElysia) => new Elysia().use(plugin);
const get = (app: AnyElysia, path: string) => app.handle(new Request(`${SITE_URL}${path}`));

describe('each plugin mounts on its own', () => {
  test('health and problem pages', async () => {
    expect(await (await get(alone(healthPlugin(deps)), '/healthz')).json()).toEqual({ ok: true });
    const res = await get(alone(problemPagesPlugin(deps)), '/problems/not-found');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toStartWith('text/html');
  });

  test('REST answers an operation; OpenAPI its document and the docs page', async () => {
    const rest = await get(alone(restPlugin(deps)), '/api/v1/categories');
    expect(rest.status).toBe(200);
    expect(rest.headers.get('ratelimit-policy')).toBeTruthy();
    const openapi = alone(openApiPlugin(deps));
    expect((await (await get(openapi, '/api/v1/openapi.json')).json()).openapi).toStartWith('3.1');
    expect((await get(openapi, '/docs')).status).toBe(200);
  });

  test('OAuth answers its metadata; the site its sign-in page; badges and the bot page theirs', async () => {
    const meta = await get(alone(oauthPlugin(deps)), '/.well-known/oauth-authorization-server');
    expect(meta.status).toBe(200);
    expect((await meta.json()).issuer).toBe(SITE_URL);
    const signIn = await get(alone(sitePlugin(deps)), '/sign-in');
    expect(signIn.status).toBe(200);
    expect(await signIn.text()).toContain('<h1>Sign in</h1>');
    const badge = await get(alone(badgesPlugin(deps)), '/badges/no-such-listing/featured.svg');
    expect(badge.status).toBe(404);
    expect(badge.headers.get('content-type')).toBe('application/problem+json');
    expect((await get(alone(botPagePlugin(deps)), '/bot')).status).toBe(200);
  });

  test('MCP: the credential the gate resolved reaches the tool as authInfo, on both protocol eras', async () => {
    const user = await findOrCreateUser(db.sql, 'ann@example.com');
    const key = (await createApiKey(db.sql, { userId: user.id, name: 'mcp', scopes: ['account:read'] })).secret;
    const app = alone(mcpPlugin(deps));
    const headers = { authorization: `Bearer ${key}` };

    // 2025-11-25: the stateless legacy leg (transport.handleRequest with authInfo).
    const legacy = await app.handle(
      new Request(`${SITE_URL}/mcp`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_account', arguments: {} } }),
      }),
    );
    expect(legacy.status).toBe(200);
    const legacyResult = (await legacy.json()).result;
    expect(legacyResult.isError).toBeUndefined();
    expect(legacyResult.structuredContent.credential).toMatchObject({ kind: 'api_key', name: 'mcp', scopes: ['account:read'] });

    // 2026-07-28: the SDK's own handler (handler.fetch with authInfo).
    const client = new Client({ name: 'plugin-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${SITE_URL}/mcp`), {
        requestInit: { headers },
        fetch: (url, init) => app.handle(new Request(url, init)),
      }),
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const result = await client.callTool({ name: 'get_account', arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ user: { email: 'ann@example.com' }, credential: { kind: 'api_key', scopes: ['account:read'] } });
    } finally {
      await client.close();
    }
  });
});
