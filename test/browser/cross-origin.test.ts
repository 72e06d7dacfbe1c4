import { afterAll, beforeAll, expect, test } from 'bun:test';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { seedDemo } from '../../seeds/demo.ts';
import { makeApiKey } from '../builders.ts';
import { launchBrowser, type Browser } from '../browser.ts';
import { freePort, startTestApp, type TestApp } from '../harness.ts';

// A browser app on another origin, as an integrator builds one: its page calls the API and /mcp
// with fetch() in Chromium, so the browser's own CORS rules (preflights, exposed headers, no
// credentials) decide what it may send and read, not our reading of them.

let app: TestApp;
let browser: Browser;
let elsewhere: ReturnType<typeof Bun.serve>;
let origin: string;
let key: string;
beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  // A port is part of an origin: the page below is cross-origin to the edge though both are on 127.0.0.1.
  elsewhere = Bun.serve({
    port,
    hostname: '127.0.0.1',
    fetch: () => new Response('<!doctype html><title>An integrator</title><p>App', { headers: { 'content-type': 'text/html' } }),
  });
  app = await startTestApp({
    env: { MCP_ALLOWED_ORIGINS: origin },
    prepare: async (sql, siteId) => {
      await seedDemo(sql, siteId);
    },
  });
  const user = await findOrCreateUser(app.sql, 'integrator@example.test');
  key = await makeApiKey(app.sql, user, ['account:read', 'listings:write'], 'browser app');
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  elsewhere?.stop(true);
});

interface Seen {
  ok: boolean;
  status?: number;
  headers?: Record<string, string | null>;
  body?: unknown;
  error?: string;
}

/** fetch() run by the page of the other origin; what the page's script can see of the answer. */
async function fromPage(url: string, init: RequestInit, read: string[] = []): Promise<Seen> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    return await page.evaluate(
      async ([url, init, read]) => {
        try {
          const res = await fetch(url, init);
          const headers: Record<string, string | null> = {};
          for (const h of read) headers[h] = res.headers.get(h);
          const text = await res.text();
          return { ok: true, status: res.status, headers, body: text ? JSON.parse(text) : null };
        } catch (e) {
          return { ok: false, error: String(e) };
        }
      },
      [url, init, read] as const,
    );
  } finally {
    await context.close();
  }
}

test('a page of another origin reads the public API and sees the headers it needs', async () => {
  const seen = await fromPage(`${app.api}/listings?per_page=1`, {}, ['etag', 'link', 'ratelimit', 'ratelimit-policy', 'x-request-id']);
  expect(seen.ok).toBe(true);
  expect(seen.status).toBe(200);
  expect((seen.body as { items: unknown[] }).items).toHaveLength(1);
  expect(seen.headers!.etag).toMatch(/^(W\/)?"/);
  expect(seen.headers!.link).toContain('rel="next"');
  expect(seen.headers!.ratelimit).toContain('anonymous_read');
  expect(seen.headers!['ratelimit-policy']).toContain('anonymous_read');
}, 60_000);

test('bearer calls pass the preflight, with any header a client adds; errors show their request id', async () => {
  // traceparent is what browser tracing adds to every fetch: a preflight that named only our own
  // headers refused it, and the call never left the browser.
  const me = await fromPage(`${app.api}/me`, { headers: { authorization: `Bearer ${key}`, traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` } });
  expect(me.ok).toBe(true);
  expect(me.status).toBe(200);
  expect((me.body as { user: { email: string } }).user.email).toBe('integrator@example.test');

  const bad = await fromPage(
    `${app.api}/drafts`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: '{"url":7}',
    },
    ['x-request-id'],
  );
  expect(bad.ok).toBe(true);
  expect(bad.status).toBe(400);
  const problem = bad.body as { instance: string; errors?: unknown };
  expect(bad.headers!['x-request-id']).toBeTruthy();
  expect(problem.instance).toBe(bad.headers!['x-request-id']!);
}, 60_000);

test('cookies never ride along: a credentialed call is refused by the browser', async () => {
  // No Access-Control-Allow-Credentials: a page cannot make the API act on a visitor's session.
  const seen = await fromPage(`${app.api}/me`, { credentials: 'include' });
  expect(seen.ok).toBe(false);
}, 60_000);

test('an allowed origin calls /mcp from the page with a bearer token', async () => {
  const seen = await fromPage(
    `${app.url}/mcp`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    },
    [],
  );
  expect(seen.ok).toBe(true);
  expect(seen.status).toBe(200);
  const tools = (seen.body as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
  expect(tools).toContain('get_listing');
}, 60_000);
