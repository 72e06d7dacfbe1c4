import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { makeListing } from '../../test/builders.ts';
import { eventually } from '../../test/eventually.ts';

// A cached public read is answered from headers built once per answer (answerKept) and passed by
// the wire untouched (markFinished). Its headers must be the ones the general path gives the same
// request: here that path is taken by sending an If-None-Match that matches nothing.

let app: TestApp;
let slug: string;
beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    env: { SITE_URL: 'https://directory.example' },
    prepare: async (sql, siteId) => {
      slug = (await makeListing(sql, { siteId, name: 'Kept Headers One' })).slug;
      await makeListing(sql, { siteId, name: 'Kept Headers Two' });
    },
  });
});
afterAll(() => app.stop());

/** Every header but the two that change per request, and the body. */
async function answer(path: string, headers: Record<string, string> = {}) {
  const res = await app.get(`${app.api}${path}`, { headers });
  const all = Object.fromEntries(res.headers);
  const { 'x-request-id': id, ratelimit, ...rest } = all;
  // A gzip body is compared as what it decodes to: its level depends on how often it was sent (wire.ts).
  const bytes = new Uint8Array(await res.arrayBuffer());
  const body = new TextDecoder().decode(all['content-encoding'] === 'gzip' ? Bun.gunzipSync(bytes) : bytes);
  return { status: res.status, id, ratelimit, headers: rest, body };
}

const paths = () => [`/listings/${slug}`, '/listings?q=kept&per_page=1', '/categories'];

test('a cached read answers with the headers and body of the general path', async () => {
  for (const path of paths()) {
    for (const encoding of [{}, { 'accept-encoding': 'gzip' }] as Record<string, string>[]) {
      await answer(path, encoding); // cached now
      const kept = await answer(path, encoding);
      const general = await answer(path, { ...encoding, 'if-none-match': '"matches-nothing"' });
      expect({ path, ...kept, id: undefined, ratelimit: undefined }).toEqual({ path, ...general, id: undefined, ratelimit: undefined });
      expect(kept.status).toBe(200);
      expect(kept.headers['access-control-allow-origin']).toBe('*');
      expect(kept.headers['strict-transport-security']).toBeDefined();
    }
  }
});

test('the link header of a page, the request id and the remaining budget are those of each request', async () => {
  const first = await answer('/listings?q=kept&per_page=1');
  const second = await answer('/listings?q=kept&per_page=1');
  expect(second.headers.link).toContain('rel="next"');
  expect(second.id).not.toBe(first.id);
  const remaining = (r: string | undefined) => Number(/;r=(\d+)/.exec(r ?? '')?.[1]);
  expect(remaining(second.ratelimit)).toBe(remaining(first.ratelimit) - 1);
  const sent = await answer('/listings?q=kept&per_page=1', { 'x-request-id': 'mine-1' });
  expect(sent.id).toBe('mine-1');
});

test('a new answer after a write is sent with headers of its own', async () => {
  const before = await answer(`/listings/${slug}`);
  await app.sql`update listings set tagline = 'A tagline written later' where slug = ${slug}`;
  await app.sql`select directory_changed()`;
  await eventually(
    () => answer(`/listings/${slug}`),
    (a) => a.headers.etag !== before.headers.etag,
  );
  const now = await answer(`/listings/${slug}`); // the new answer's second sending: from its kept headers
  expect(now.body).toContain('A tagline written later');
  const general = await answer(`/listings/${slug}`, { 'if-none-match': before.headers.etag! });
  expect({ ...now, id: undefined, ratelimit: undefined }).toEqual({ ...general, id: undefined, ratelimit: undefined });
  const revalidated = await app.get(`${app.api}/listings/${slug}`, { headers: { 'if-none-match': now.headers.etag! } });
  expect(revalidated.status).toBe(304);
});

test('an MCP tools/call of a public read carries what the wire adds, and is compressed when asked', async () => {
  const call = (headers: Record<string, string> = {}) =>
    app.get(`${app.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_listing', arguments: { slug } } }),
    });
  const plain = await call();
  const text = await plain.text();
  expect(JSON.parse(text).result.structuredContent.slug).toBe(slug);
  const h = Object.fromEntries(plain.headers);
  expect(h).toMatchObject({
    'content-type': 'application/json',
    'access-control-allow-origin': '*',
    vary: 'Accept-Encoding',
    'x-content-type-options': 'nosniff',
  });
  expect(h.ratelimit).toMatch(/^"anonymous_read";r=\d+;t=\d+$/);
  const gzipped = await call({ 'accept-encoding': 'gzip' });
  expect(gzipped.headers.get('content-encoding')).toBe('gzip');
  expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await gzipped.arrayBuffer())))).toBe(text);
});
