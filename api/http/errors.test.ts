import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { createApiKey } from '../../core/auth/api-keys.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ socket: false, env: { CACHE_TTL_SECONDS: '0' } });
});
afterAll(() => app.stop());

test('an unexpected failure is a 500 problem without internals, with the request id', async () => {
  await app.sql`alter table categories rename to categories_gone`;
  try {
    const res = await app.get('/site', { headers: { 'x-request-id': 'req-123' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const text = await res.text();
    expect(text).not.toContain('categories');
    expect(text).not.toMatch(/stack|at \w+ \(/);
    const body = JSON.parse(text);
    expect(body).toMatchObject({ status: 500, title: 'Internal error', instance: 'req-123', code: 'internal' });
    expect(res.headers.get('x-request-id')).toBe('req-123');
  } finally {
    await app.sql`alter table categories_gone rename to categories`;
  }
  expect((await app.get('/site')).status).toBe(200);
});

test('problem types resolve to a page that explains them', async () => {
  const res = await app.get('/site?bogus=1');
  const body = await res.json();
  expect(body.type).toBe(`${app.url}/problems/validation`);
  expect(body.code).toBe('invalid_input');
  const page = await app.get(body.type);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('400 Invalid request');
  // The page lists the codes answered with this kind, and only those.
  for (const code of ['invalid_input', 'unknown_category', 'url_not_public']) expect(html).toContain(`id="${code}"`);
  expect(html).not.toContain('id="malformed_json"');
  const conflictPage = await (await app.get(`${app.url}/problems/conflict`)).text();
  for (const code of ['draft_in_progress', 'invite_limit_reached', 'idempotency_request_in_flight']) expect(conflictPage).toContain(`id="${code}"`);
  expect((await app.get(`${app.url}/problems/service-unavailable`)).status).toBe(200);
});

test('credentials: missing, invalid and short of scope each have their own code', async () => {
  const none = await app.json('/me');
  expect([none.status, none.body.code]).toEqual([401, 'credential_required']);
  const bad = await app.json('/me', { headers: { authorization: 'Bearer ldk_nope' } });
  expect([bad.status, bad.body.code]).toEqual([401, 'invalid_credential']);
  const u = await findOrCreateUser(app.sql, 'scopes@example.com');
  const { secret } = await createApiKey(app.sql, { userId: u.id, name: 'read', scopes: ['account:read'] });
  const short = await app.json('/drafts', { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: '{}' });
  expect([short.status, short.body.code]).toEqual([403, 'insufficient_scope']);
});

test('a body that is not JSON is 400 malformed_json; another media type is 415', async () => {
  const u = await findOrCreateUser(app.sql, 'bodies@example.com');
  const { secret } = await createApiKey(app.sql, { userId: u.id, name: 'w', scopes: ['listings:write'] });
  const auth = { authorization: `Bearer ${secret}` };
  const broken = await app.json('/drafts', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"url": ' });
  expect(broken.status).toBe(400);
  expect(broken.body).toMatchObject({
    type: `${app.url}/problems/bad-request`,
    title: 'Bad request',
    code: 'malformed_json',
    detail: 'The body is not valid JSON.',
  });
  const text = await app.json('/drafts', { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: 'https://example.com' });
  expect(text.status).toBe(415);
  expect(text.body).toMatchObject({ type: `${app.url}/problems/unsupported-media-type`, code: 'unsupported_media_type' });
  const privateUrl = await app.json('/drafts', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://10.0.0.1/' }),
  });
  expect(privateUrl.status).toBe(400);
  expect(privateUrl.body).toMatchObject({ code: 'url_not_public', errors: [{ field: 'url' }] });
});

test('a path outside the API is a 404 problem too', async () => {
  const res = await app.get(`${app.url}/no/such/page`);
  expect(res.status).toBe(404);
  expect(await res.json()).toMatchObject({ title: 'Not found', code: 'not_found' });
});

test('an oversized body is a 413 problem', async () => {
  const small = await startTestApp({ socket: false, env: { MAX_BODY_BYTES: '2048' } });
  try {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(5000) } });
    const res = await small.get(`${small.url}/mcp`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 413, code: 'too_large' });
  } finally {
    await small.stop();
  }
});
