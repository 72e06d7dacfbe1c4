import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { makeApiKey, makeListing } from '../../test/builders.ts';
import { eventually } from '../../test/eventually.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { operations } from '../registry/index.ts';
import { randomBytes } from 'node:crypto';
import {
  COMPRESSION_LEVELS,
  compress,
  ENCODED_BUDGET_BYTES,
  encodedBytes,
  finishResponse,
  KEPT_FROM_SENDING,
  negotiateEncoding,
  onceEncoding,
  pathnameOf,
} from './wire.ts';

// Bun's fetch decompresses on its own; `decompress: false` shows the bytes as they were sent.
const raw = (url: string, init: RequestInit & { headers?: Record<string, string> } = {}) => fetch(url, { ...init, decompress: false } as RequestInit);

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({
    prepare: async (sql, siteId) => {
      for (let i = 0; i < 30; i++) await makeListing(sql, { siteId, slug: `wire-${String(i).padStart(2, '0')}`, name: `Wire product ${i}` });
    },
  });
  const user = await findOrCreateUser(app.sql, 'wire@wire.example');
  key = await makeApiKey(app.sql, user, ['account:read', 'listings:write'], 'wire');
});
afterAll(() => app.stop());

test('the path of a request URL is read without its query or fragment', () => {
  expect(pathnameOf('http://127.0.0.1:8080/api/v1/listings?q=a/b#x')).toBe('/api/v1/listings');
  expect(pathnameOf('https://example.com/mcp')).toBe('/mcp');
  expect(pathnameOf('https://example.com#top')).toBe('/');
  expect(pathnameOf('https://example.com')).toBe('/');
  expect(pathnameOf('http://[::1]:3000/a%20b?')).toBe('/a%20b');
});

describe('compression', () => {
  test('Accept-Encoding is negotiated: brotli first, then gzip, never a q=0 one', () => {
    expect(negotiateEncoding('gzip, deflate, br')).toBe('br');
    expect(negotiateEncoding('gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(negotiateEncoding('identity')).toBeNull();
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding(null)).toBeNull();
    // A body's first sending: gzip wherever the client takes it (the faster of the two), else the best.
    expect(onceEncoding('gzip, deflate, br')).toBe('gzip');
    expect(onceEncoding('br')).toBe('br');
    expect(onceEncoding('br, gzip;q=0')).toBe('br');
    expect(onceEncoding('*')).toBe('gzip');
    expect(onceEncoding('identity')).toBeNull();
    expect(onceEncoding(null)).toBeNull();
    // Answers are remembered by header value: asked again, and past the memo's size, each is still its own.
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 200; i++)
        expect(negotiateEncoding(`gzip;q=0.${i % 9}, br;q=${i % 3 === 0 ? 0 : 1}, x-${i}`)).toBe(
          i % 3 === 0 && i % 9 === 0 ? null : i % 3 === 0 ? 'gzip' : 'br',
        );
    expect(negotiateEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
  });

  test('a JSON list is sent as brotli or gzip, the same bytes once decoded, with Vary and an ETag per encoding', async () => {
    const url = `${app.api}/listings?per_page=30`;
    const plain = await raw(url, { headers: { 'accept-encoding': 'identity' } });
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(1024);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toContain('Accept-Encoding');
    const etag = plain.headers.get('etag')!;

    // The first sendings are gzip at its fast level (the cheaper encoding the client takes); from
    // KEPT_FROM_SENDING on, the client's best, brotli, at the kept level.
    let first!: Response;
    for (let sending = 1; sending < KEPT_FROM_SENDING; sending++) {
      first = await raw(url, { headers: { 'accept-encoding': 'gzip, br' } });
      expect(first.headers.get('content-encoding')).toBe('gzip');
      expect(first.headers.get('vary')).toContain('Accept-Encoding');
      expect(first.headers.get('etag')).toBe(etag.replace(/"$/, '-gzip"'));
      expect(gunzipSync(Buffer.from(await first.arrayBuffer())).toString()).toBe(text);
    }
    const br = await raw(url, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toContain('Accept-Encoding');
    expect(br.headers.get('etag')).toBe(etag.replace(/"$/, '-br"'));
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brotliDecompressSync(brBytes).toString()).toBe(text);
    // Asked again, the remembered encoding is sent without reading the body: same bytes, same headers.
    const brAgain = await raw(url, { headers: { 'accept-encoding': 'br' } });
    expect(brAgain.headers.get('content-encoding')).toBe('br');
    expect(brAgain.headers.get('etag')).toBe(br.headers.get('etag'));
    expect(brAgain.headers.get('vary')).toContain('Accept-Encoding');
    expect(Buffer.from(await brAgain.arrayBuffer()).equals(brBytes)).toBe(true);

    const gz = await raw(url, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('etag')).toBe(etag.replace(/"$/, '-gzip"'));
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(text);

    // Revalidating with the first sending's ETag is a 304 naming it.
    const firstAgain = await raw(url, { headers: { 'accept-encoding': 'gzip, br', 'if-none-match': first.headers.get('etag')! } });
    expect(firstAgain.status).toBe(304);
    expect(firstAgain.headers.get('etag')).toBe(first.headers.get('etag'));

    // Revalidating with the encoded ETag is a 304 naming that same ETag, with no body.
    const again = await raw(url, { headers: { 'accept-encoding': 'gzip, br', 'if-none-match': br.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(br.headers.get('etag'));
    expect(again.headers.get('content-encoding')).toBeNull();
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    const plainAgain = await raw(url, { headers: { 'accept-encoding': 'identity', 'if-none-match': etag } });
    expect(plainAgain.status).toBe(304);
    expect(plainAgain.headers.get('etag')).toBe(etag);
  });

  test('bodies under 1 KB go as they are', async () => {
    const res = await raw(`${app.api}/listings/wire-01/alternatives?per_page=1`, { headers: { 'accept-encoding': 'br' } });
    const small = await raw(`${app.url}/api/v1/listings/no-such-listing`, { headers: { 'accept-encoding': 'br' } });
    expect(small.status).toBe(404);
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(await small.text()).status).toBe(404);
    await res.arrayBuffer();
  });

  test('the OpenAPI document, MCP JSON responses and pages are compressed', async () => {
    const doc = await raw(`${app.api}/openapi.json`, { headers: { 'accept-encoding': 'br' } });
    expect(doc.headers.get('content-encoding')).toBe('br');
    expect(JSON.parse(brotliDecompressSync(Buffer.from(await doc.arrayBuffer())).toString()).openapi).toMatch(/^3\.1/);

    const mcp = await raw(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        'accept-encoding': 'gzip',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(mcp.status).toBe(200);
    expect(mcp.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(Buffer.from(await mcp.arrayBuffer())).toString()).result.tools.length).toBe(operations.length);

    const page = await raw(`${app.url}/`, { headers: { 'accept-encoding': 'br' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await page.arrayBuffer())).toString()).toContain('<html');
  });

  test("a body sent once (an MCP tool result, a read's first sending) is compressed at the fast level, a read sent a third time at the kept one", async () => {
    const mcp = await raw(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        'accept-encoding': 'br',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_listing', arguments: { slug: 'wire-01' } } }),
    });
    expect(mcp.headers.get('content-encoding')).toBe('br');
    const sent = new Uint8Array(await mcp.arrayBuffer());
    const plain = brotliDecompressSync(sent);
    expect(JSON.parse(plain.toString()).result.structuredContent.slug).toBe('wire-01');
    expect(Buffer.from(sent).equals(Buffer.from(compress(plain, 'br', COMPRESSION_LEVELS.br.once)))).toBe(true);

    // The same read four times: fast until KEPT_FROM_SENDING (most long-tail reads are not asked
    // again), then the kept level, made once and answered from after; one ETag throughout.
    const sendings: { etag: string | null; bytes: Uint8Array }[] = [];
    for (let i = 0; i < 4; i++) {
      const read = await raw(`${app.api}/listings/wire-01`, { headers: { 'accept-encoding': 'gzip' } });
      expect(read.headers.get('content-encoding')).toBe('gzip');
      sendings.push({ etag: read.headers.get('etag'), bytes: new Uint8Array(await read.arrayBuffer()) });
    }
    const plainRead = gunzipSync(sendings[0]!.bytes);
    const fast = Buffer.from(compress(plainRead, 'gzip', COMPRESSION_LEVELS.gzip.once));
    const kept = Buffer.from(compress(plainRead, 'gzip', COMPRESSION_LEVELS.gzip.kept));
    expect(KEPT_FROM_SENDING).toBe(3);
    sendings.forEach((s, i) => {
      expect(Buffer.from(s.bytes).equals(i + 1 < KEPT_FROM_SENDING ? fast : kept)).toBe(true);
      expect(s.etag).toBe(sendings[0]!.etag);
    });
    expect(kept.byteLength).toBeLessThan(fast.byteLength);
    expect(COMPRESSION_LEVELS.br.once).toBeLessThan(COMPRESSION_LEVELS.br.kept);

    // A client taking both: gzip at the fast level first, then brotli at the kept one.
    const both = [];
    for (let i = 0; i < 4; i++) {
      const read = await raw(`${app.api}/listings/wire-02`, { headers: { 'accept-encoding': 'br, gzip' } });
      both.push({ enc: read.headers.get('content-encoding'), bytes: new Uint8Array(await read.arrayBuffer()) });
    }
    expect(both.map((b) => b.enc)).toEqual(['gzip', 'gzip', 'br', 'br']);
    const plainBoth = gunzipSync(both[0]!.bytes);
    expect(Buffer.from(both[1]!.bytes).equals(Buffer.from(compress(plainBoth, 'gzip', COMPRESSION_LEVELS.gzip.once)))).toBe(true);
    expect(Buffer.from(both[2]!.bytes).equals(Buffer.from(compress(plainBoth, 'br', COMPRESSION_LEVELS.br.kept)))).toBe(true);
    expect(Buffer.from(both[3]!.bytes).equals(Buffer.from(both[2]!.bytes))).toBe(true);
  });
  test('remembered encodings stay within their byte budget, however many answers pass', async () => {
    // 500 distinct answers of 96 KB hex (gzip halves it), each sent until its encoding is kept:
    // about 27 MB of encodings against a 16 MB budget.
    for (let i = 0; i < 500; i++) {
      const body = randomBytes(48 * 1024).toString('hex');
      for (let sending = 0; sending < KEPT_FROM_SENDING; sending++) {
        const res = await finishResponse(
          new Request('http://x/api/v1/listings', { headers: { 'accept-encoding': 'gzip' } }),
          new Response(body, { headers: { 'content-type': 'application/json', etag: `"budget-${i}"` } }),
        );
        expect(res.headers.get('content-encoding')).toBe('gzip');
        expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(body);
      }
    }
    expect(encodedBytes()).toBeGreaterThan(ENCODED_BUDGET_BYTES / 2);
    expect(encodedBytes()).toBeLessThanOrEqual(ENCODED_BUDGET_BYTES);
  });
});

describe('CORS', () => {
  const preflightOf = (path: string, method = 'GET') =>
    fetch(`${app.url}${path}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.elsewhere.test',
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization, content-type',
      },
    });

  test('preflights on the API and /mcp are answered, without credentials', async () => {
    for (const [path, method] of [
      ['/api/v1/listings', 'GET'],
      ['/api/v1/drafts', 'POST'],
      ['/mcp', 'POST'],
    ] as const) {
      const res = await preflightOf(path, method);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toContain(method);
      const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase();
      for (const h of ['authorization', 'content-type', 'idempotency-key', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'])
        expect(allowed).toContain(h);
      // Any other header a client adds (traceparent, say) is admitted by the wildcard.
      expect(allowed.split(/,\s*/)).toContain('*');
      expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  test('cross-origin reads and bearer calls get Allow-Origin and the headers clients need exposed', async () => {
    const read = await fetch(`${app.api}/listings`, { headers: { origin: 'https://app.elsewhere.test' } });
    expect(read.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = read.headers.get('access-control-expose-headers')!.toLowerCase();
    for (const h of ['ratelimit', 'ratelimit-policy', 'retry-after', 'etag', 'location', 'link', 'idempotent-replayed', 'mcp-session-id', 'x-request-id'])
      expect(exposed.split(/,\s*/)).toContain(h);
    expect(read.headers.get('access-control-allow-credentials')).toBeNull();
    const me = await fetch(`${app.api}/me`, { headers: { origin: 'https://app.elsewhere.test', authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    expect(me.headers.get('access-control-allow-origin')).toBe('*');
    const mcp = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        origin: 'https://app.elsewhere.test',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    // /mcp keeps the transport's Origin rule (scheme, host and port): a page of another origin is
    // refused, with the CORS headers that let the browser read why.
    expect(mcp.status).toBe(403);
    expect(mcp.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('pages and site forms get no CORS', async () => {
    const page = await fetch(`${app.url}/`, { headers: { origin: 'https://app.elsewhere.test' } });
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    const form = await preflightOf('/sign-in', 'POST');
    expect(form.headers.get('access-control-allow-origin')).toBeNull();
    expect(form.status).not.toBe(204);
  });
});

describe('status details', () => {
  test('a wrong method on an existing path is 405 with Allow, as a problem', async () => {
    const res = await fetch(`${app.api}/listings`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, OPTIONS');
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const p = await res.json();
    expect(p).toMatchObject({ status: 405, code: 'method_not_allowed' });
    expect(p.instance).toBe(res.headers.get('x-request-id'));
    const page = await fetch(`${app.url}/docs`, { method: 'POST' });
    expect(page.status).toBe(405);
    expect(page.headers.get('allow')).toBe('GET');
    expect((await fetch(`${app.api}/no-such-thing`, { method: 'DELETE' })).status).toBe(404);
  });

  test('a 201 carries Location: the created resource', async () => {
    const res = await fetch(`${app.api}/drafts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://located.example' }),
    });
    expect(res.status).toBe(201);
    const draft = await res.json();
    expect(res.headers.get('location')).toBe(`${app.api}/drafts/${draft.id}`);
    const got = await fetch(res.headers.get('location')!, { headers: { authorization: `Bearer ${key}` } });
    expect(got.status).toBe(200);
    expect((await got.json()).id).toBe(draft.id);
    // Every create operation says where it points.
    for (const op of operations.filter((o) => o.status === 201)) expect(typeof op.location).toBe('function');
  });

  test('paginated lists carry Link headers for next and prev (RFC 8288)', async () => {
    const first = await fetch(`${app.api}/listings?per_page=10&sort=newest`);
    expect(first.headers.get('link')).toBe(`<${app.api}/listings?per_page=10&sort=newest&page=2>; rel="next"`);
    const middle = await fetch(`${app.api}/listings?per_page=10&page=2`);
    expect(middle.headers.get('link')).toBe(`<${app.api}/listings?per_page=10&page=3>; rel="next", <${app.api}/listings?per_page=10&page=1>; rel="prev"`);
    const last = await fetch(`${app.api}/listings?per_page=10&page=3`);
    expect(last.headers.get('link')).toBe(`<${app.api}/listings?per_page=10&page=2>; rel="prev"`);
    expect((await fetch(`${app.api}/listings/wire-01`)).headers.get('link')).toBeNull();
    // The same URL after the list grew: the links follow the new answer, not the first one seen.
    for (let i = 30; i < 32; i++) await makeListing(app.sql, { siteId: app.siteId, slug: `wire-${i}`, name: `Wire product ${i}` });
    await app.sql`select directory_changed()`;
    const grown = await eventually(
      () => fetch(`${app.api}/listings?per_page=10&page=3`),
      (r) => r.headers.get('link')?.includes('rel="next"') === true,
    );
    expect(grown.headers.get('link')).toBe(`<${app.api}/listings?per_page=10&page=4>; rel="next", <${app.api}/listings?per_page=10&page=2>; rel="prev"`);
  });

  test('every error carries the request id, as x-request-id and as the problem instance', async () => {
    const cases: [string, RequestInit][] = [
      [`${app.api}/listings/no-such-listing`, {}],
      [`${app.api}/listings?per_page=1000`, {}],
      [`${app.url}/no/such/path`, { headers: { accept: 'application/json' } }],
      [`${app.api}/me`, {}],
      [`${app.api}/drafts`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{not json' }],
      [`${app.url}/mcp`, { method: 'POST', headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' }, body: 'x' }],
    ];
    for (const [url, init] of cases) {
      const res = await fetch(url, init);
      expect(res.status).toBeGreaterThanOrEqual(400);
      const id = res.headers.get('x-request-id');
      expect(id).toBeTruthy();
      if (res.headers.get('content-type')?.includes('problem+json')) expect((await res.json()).instance).toBe(id);
      else await res.arrayBuffer();
    }
    const sent = await fetch(`${app.url}/no/such/path`, { headers: { 'x-request-id': 'trace-123' } });
    expect(sent.headers.get('x-request-id')).toBe('trace-123');
  });
});
