import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../test/harness.ts';

let app: TestApp;
beforeAll(async () => { app = await startTestApp({ env: { CACHE_TTL_SECONDS: '0' } }); });
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
    expect(body).toMatchObject({ status: 500, title: 'Internal error', instance: 'req-123' });
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
  const page = await fetch(body.type);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('400 Invalid request');
});

test('a path outside the API is a 404 problem too', async () => {
  const res = await fetch(`${app.url}/no/such/page`);
  expect(res.status).toBe(404);
  expect((await res.json()).title).toBe('Not found');
});

test('an oversized body is a 413 problem', async () => {
  const small = await startTestApp({ env: { MAX_BODY_BYTES: '2048' } });
  try {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(5000) } });
    const res = await fetch(`${small.url}/mcp`, {
      method: 'POST', body,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect((await res.json()).status).toBe(413);
  } finally { await small.stop(); }
});
