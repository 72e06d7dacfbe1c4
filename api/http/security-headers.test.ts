import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { makeListing } from '../../test/builders.ts';
import { DEFAULT_CSP, HSTS } from './security-headers.ts';

// nosniff on every response, HSTS with an https SITE_URL, and every HTML page (the docs
// included) with a CSP that forbids framing. One request per kind of answer the edge gives.

let app: TestApp;
let slug: string;
beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    env: { SITE_URL: 'https://directory.example' },
    prepare: async (sql, siteId) => {
      slug = (await makeListing(sql, { siteId })).slug;
    },
  });
});
afterAll(() => app.stop());

const kinds = (): [string, () => Promise<Response>, RegExp][] => [
  ['REST JSON', () => app.get(`${app.api}/categories`), /^application\/json/],
  ['a plain value (liveness)', () => app.get(`${app.url}/healthz`), /^application\/json/],
  ['REST problem', () => app.get(`${app.api}/listings/no-such-listing-here`), /^application\/problem\+json/],
  ['no route', () => app.get(`${app.url}/api/v1/nothing/here`), /./],
  ['HTML page (sign-in)', () => app.get(`${app.url}/sign-in`), /^text\/html/],
  ['HTML page (home)', () => app.get(`${app.url}/`), /^text\/html/],
  ['/docs', () => app.get(`${app.url}/docs`), /^text\/html/],
  ['/docs/plain', () => app.get(`${app.url}/docs/plain`), /^text\/html/],
  ['OpenAPI', () => app.get(`${app.api}/openapi.json`), /^application\/json/],
  ['badge SVG', () => app.get(`${app.url}/badges/${slug}/listed.svg`), /^image\/svg\+xml/],
  ['badge 404', () => app.get(`${app.url}/badges/no-such-slug/listed.svg`), /problem\+json/],
  [
    'MCP',
    () =>
      app.get(`${app.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      }),
    /./,
  ],
  ['MCP GET (405)', () => app.get(`${app.url}/mcp`), /./],
];

test('every kind of response carries nosniff and HSTS; HTML pages forbid framing through CSP and X-Frame-Options', async () => {
  const missing: string[] = [];
  for (const [label, get, type] of kinds()) {
    const res = await get();
    await res.arrayBuffer();
    const h = res.headers;
    if (res.status >= 500) missing.push(`${label}: ${res.status}`);
    if (!type.test(h.get('content-type') ?? '')) missing.push(`${label}: content-type ${h.get('content-type')} (${res.status})`);
    if (h.get('x-content-type-options') !== 'nosniff') missing.push(`${label}: nosniff`);
    if (h.get('strict-transport-security') !== HSTS) missing.push(`${label}: HSTS`);
    if (h.get('x-frame-options') !== 'DENY') missing.push(`${label}: X-Frame-Options`);
    if (!/frame-ancestors 'none'/.test(h.get('content-security-policy') ?? '')) missing.push(`${label}: CSP frame-ancestors`);
  }
  expect(missing).toEqual([]);
});

test('a page with its own CSP keeps it: the docs page still allows its own script, the default runs none', async () => {
  const docs = await app.get(`${app.url}/docs`);
  await docs.arrayBuffer();
  expect(docs.headers.get('content-security-policy')).toContain("script-src 'self'");
  const plain = await app.get(`${app.url}/docs/plain`);
  await plain.arrayBuffer();
  expect(plain.headers.get('content-security-policy')).toBe(DEFAULT_CSP);
});

test('no HSTS when SITE_URL is http', async () => {
  const local = await startTestApp({ socket: false });
  try {
    const res = await local.get(`${local.api}/categories`);
    await res.arrayBuffer();
    expect(res.headers.get('strict-transport-security')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  } finally {
    await local.stop();
  }
});
