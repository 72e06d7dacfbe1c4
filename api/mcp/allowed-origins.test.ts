import { afterAll, beforeAll, expect, test } from 'bun:test';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { loadConfig } from '../../core/config.ts';
import { makeApiKey } from '../../test/builders.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';

// A browser app on another origin may call /mcp when MCP_ALLOWED_ORIGINS names it: with a bearer
// token (never cookies), its preflight answered and the headers it needs exposed.

const APP_ORIGIN = 'https://agent-app.example.test';
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({ socket: false, env: { MCP_ALLOWED_ORIGINS: `${APP_ORIGIN}, http://localhost:5173` } });
  key = await makeApiKey(app.sql, await findOrCreateUser(app.sql, 'browser-app@example.test'), ['account:read']);
}, 60_000);
afterAll(() => app.stop());

const call = (origin: string, body: object, auth?: string) =>
  app.fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: {
      origin,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(auth ? { authorization: `Bearer ${auth}` } : {}),
    },
    body: JSON.stringify(body),
  });

test('an allowed origin gets its preflight answered and its calls served, without credentials mode', async () => {
  const pre = await app.fetch(`${app.url}/mcp`, {
    method: 'OPTIONS',
    headers: {
      origin: APP_ORIGIN,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
    },
  });
  expect(pre.status).toBe(204);
  expect(pre.headers.get('access-control-allow-origin')).toBe('*');
  expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
  expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
  expect(pre.headers.get('access-control-allow-credentials')).toBeNull();

  const res = await call(APP_ORIGIN, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_account', arguments: {} } }, key);
  expect(res.status).toBe(200);
  expect((await res.json()).result.structuredContent.user.email).toBe('browser-app@example.test');
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  const exposed = res.headers.get('access-control-expose-headers')?.toLowerCase() ?? '';
  for (const h of ['mcp-session-id', 'www-authenticate', 'ratelimit', 'x-request-id']) expect(exposed).toContain(h);
  expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  // The default port and a trailing slash in the setting name the same origin.
  expect((await call('http://localhost:5173', { jsonrpc: '2.0', id: 2, method: 'ping' })).status).toBe(200);
});

test('an origin the setting does not name is still refused', async () => {
  const res = await call('https://elsewhere.example.test', { jsonrpc: '2.0', id: 1, method: 'ping' });
  expect(res.status).toBe(403);
  expect((await res.json()).code).toBeDefined();
  expect((await call(`${APP_ORIGIN}:8443`, { jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(403);
  expect((await call('http://agent-app.example.test', { jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(403);
});

test('MCP_ALLOWED_ORIGINS takes exact origins only: a bad entry stops the start with a clear message', () => {
  expect(loadConfig({ MCP_ALLOWED_ORIGINS: 'https://A.example.com:443/, http://localhost:3001' }).mcpAllowedOrigins).toEqual([
    'https://a.example.com',
    'http://localhost:3001',
  ]);
  expect(loadConfig({}).mcpAllowedOrigins).toEqual([]);
  for (const bad of ['https://x.example.com/path', 'x.example.com', 'ftp://x.example.com', 'https://user:pw@x.example.com', 'https://x.example.com?a=1', '*'])
    expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: bad })).toThrow(/MCP_ALLOWED_ORIGINS must list origins/);
});
