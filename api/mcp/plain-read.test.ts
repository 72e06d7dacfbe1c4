import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type AnyElysia, Elysia } from 'elysia';
import pino from 'pino';
import { loadConfig } from '../../core/config.ts';
import { ensureSite } from '../../sql/site.ts';
import { makeListing } from '../../test/builders.ts';
import { freshDatabase } from '../../test/db.ts';
import type { AppDeps } from '../deps.ts';
import { createCache } from '../http/cache.ts';
import { createRateLimiter } from '../http/rate-limit.ts';
import { operations } from '../registry/index.ts';
import { plainReadCalls } from './fast-call.ts';
import { MCP_PROTOCOL_VERSIONS, mcpPlugin } from './mount.ts';
import { toolSpecOf } from './tools.ts';

// A plain tools/call of a public read is answered without connecting an SDK server; what it
// answers must be what the SDK answers (the same JSON, status and media type), so both are asked
// the same calls and compared.

const SITE_URL = 'http://127.0.0.1:9';
let db: Awaited<ReturnType<typeof freshDatabase>>;
let deps: AppDeps;
let fast: AnyElysia;
let sdk: AnyElysia;

beforeAll(async () => {
  db = await freshDatabase();
  const config = loadConfig({ SITE_URL, LOG_LEVEL: 'silent' });
  const site = await ensureSite(db.sql, config.siteKey, config.siteUrl);
  await makeListing(db.sql, { siteId: site.id, slug: 'plain-one', name: 'Plain One' });
  await makeListing(db.sql, { siteId: site.id, slug: 'plain-two', name: 'Plain Two' });
  const log = pino({ level: 'silent' });
  deps = {
    config,
    sql: db.sql,
    site,
    log,
    cache: createCache({ ttlSeconds: 60, redisUrl: null, initialGeneration: 0 }),
    limiter: createRateLimiter({ limits: config.rateLimits, redisUrl: null, log }),
  };
  fast = new Elysia().use(mcpPlugin(deps));
  sdk = new Elysia().use(mcpPlugin(deps, operations, { plainReads: false }));
}, 60_000);
afterAll(async () => {
  await deps?.cache.close();
  await deps?.limiter.close();
  await db?.drop();
});

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
async function ask(app: AnyElysia, body: unknown, headers: Record<string, string> = HEADERS) {
  const res = await app.handle(
    new Request(`${SITE_URL}/mcp`, { method: 'POST', headers: { ...headers, 'x-request-id': 'same-id' }, body: JSON.stringify(body) }),
  );
  const text = await res.text();
  // Compared as JSON: a get_listing body is the stored document's text, whose objects inside keep
  // PostgreSQL's `"name" : value` spacing, where the SDK writes the same values out again.
  const answer = (() => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  })();
  return { status: res.status, type: res.headers.get('content-type'), answer };
}
const call = (name: string, args?: unknown, id: string | number = 1) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('a plain tools/call of a public read', () => {
  const cases: [string, unknown][] = [
    ['found', call('get_listing', { slug: 'plain-one' })],
    ['string id', call('get_listing', { slug: 'plain-two' }, 'abc')],
    ['not found', call('get_listing', { slug: 'no-such' })],
    ['wrong type', call('get_listing', { slug: 5 })],
    ['unknown argument', call('get_listing', { slug: 'plain-one', color: 'red' })],
    ['missing argument', call('get_listing', {})],
    ['no arguments at all', call('list_categories')],
    ['a list with paging', call('search_listings', { q: 'plain', per_page: 1 })],
    ['out of bounds', call('search_listings', { per_page: 1000 })],
    ['site info', call('get_site_info', {})],
  ];
  test.each(cases)('is answered exactly as the SDK answers it: %s', async (_name, body) => {
    const [a, b] = [await ask(fast, body), await ask(sdk, body)];
    expect(a.status).toBe(200);
    expect(a).toEqual(b);
  });
});

describe('which calls take the plain path', () => {
  const specs = operations.map(toolSpecOf);
  const plain = plainReadCalls(
    specs,
    MCP_PROTOCOL_VERSIONS.filter((v) => v.startsWith('2025-')),
  );
  const req = (headers: Record<string, string> = HEADERS, method = 'POST') => new Request(`${SITE_URL}/mcp`, { method, headers });

  test('a well-formed call of a public read does', () => {
    expect(plain(req(), call('get_listing', { slug: 'x' }, 7))).toMatchObject({ id: 7, spec: { name: 'get_listing' } });
    expect(plain(req({ ...HEADERS, 'content-type': 'application/json; charset=utf-8' }), call('list_categories'))).not.toBeNull();
  });

  test('anything else goes to the SDK', () => {
    const others: [string, Request, unknown][] = [
      ['a tool that writes', req(), call('submit_listing', { url: 'https://x.test' })],
      ['a tool that needs a credential', req(), call('get_account', {})],
      ['an unknown tool', req(), call('no_such_tool', {})],
      ['another method', req(), { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
      ['a batch', req(), [call('get_listing', { slug: 'x' })]],
      ['a notification (no id)', req(), { jsonrpc: '2.0', method: 'tools/call', params: { name: 'get_listing' } }],
      ['a fractional id', req(), call('get_listing', {}, 1.5)],
      ['a null id', req(), { ...call('get_listing', {}), id: null }],
      ['_meta (a progress token)', req(), { ...call('get_listing', {}), params: { name: 'get_listing', arguments: {}, _meta: { progressToken: 1 } } }],
      ['an extra member', req(), { ...call('get_listing', {}), extra: true }],
      ['arguments that are not an object', req(), call('get_listing', ['x'])],
      ['another JSON-RPC version', req(), { ...call('get_listing', {}), jsonrpc: '1.0' }],
      ['no protocol version header', req({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' }), call('get_listing', {})],
      ['the modern protocol version', req({ ...HEADERS, 'mcp-protocol-version': '2026-07-28' }), call('get_listing', {})],
      ['an Accept without event streams', req({ ...HEADERS, accept: 'application/json' }), call('get_listing', {})],
      ['another content type', req({ ...HEADERS, 'content-type': 'text/plain' }), call('get_listing', {})],
      ['a GET', req(HEADERS, 'GET'), call('get_listing', {})],
    ];
    for (const [name, request, body] of others) expect({ name, call: plain(request, body) }).toEqual({ name, call: null });
  });
});
