import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Writable } from 'node:stream';
import pino from 'pino';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { loadConfig } from '../../core/config.ts';
import { ensureSite } from '../../sql/site.ts';
import { makeApiKey } from '../../test/builders.ts';
import { freshDatabase } from '../../test/db.ts';
import { buildApp, type AppDeps } from '../app.ts';
import { createCache } from '../http/cache.ts';
import { createRateLimiter } from '../http/rate-limit.ts';
import { eventually } from '../../test/eventually.ts';

// the edge's /metrics (requests by surface, operation and status with latency;
// cache hits and misses; rate-limit refusals; idempotent replays) and one log line per request.
const SITE = 'http://localhost';
let db: Awaited<ReturnType<typeof freshDatabase>>;
let deps: AppDeps;
let app: ReturnType<typeof buildApp>;
let key = '';
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  db = await freshDatabase();
  const config = loadConfig({ SITE_URL: SITE, RATE_LIMIT_WRITES: '3', RATE_LIMIT_ANONYMOUS_READS: '100000' });
  const site = await ensureSite(db.sql, config.siteKey, config.siteUrl);
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  const log = pino({ level: 'info' }, sink);
  const cache = createCache({ ttlSeconds: 30, redisUrl: null, initialGeneration: 0 });
  const limiter = createRateLimiter({ limits: config.rateLimits, redisUrl: null });
  deps = { config, sql: db.sql, site, cache, log, limiter };
  app = buildApp(deps);
  key = await makeApiKey(db.sql, await findOrCreateUser(db.sql, 'metrics@example.com'), ['account:read', 'listings:write']);
}, 60_000);
afterAll(async () => {
  await deps?.limiter.close();
  await db?.drop();
});

const call = (path: string, init?: RequestInit) => app.handle(new Request(`${SITE}${path}`, init));
const submit = (idem: string) =>
  call('/api/v1/drafts', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idem },
    body: JSON.stringify({ url: `https://${idem}.example` }),
  });
const mcp = (name: string) =>
  call('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }),
  });
/** The value of one sample in Prometheus text, or 0 when it is absent. */
const sample = (text: string, name: string, labels: Record<string, string>) => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line ? Number(line.split(' ').at(-1)) : 0;
};
// onAfterResponse runs once the response is handed over: the counts and log lines arrive a moment later.
const metricsWhen = (ready: (text: string) => boolean) => eventually(async () => (await call('/metrics')).text(), ready);
/** Until no further log line arrives between two reads. */
const logQuiet = async () => {
  let last = -1;
  await eventually(
    async () => lines.length,
    (n) => {
      const same = n === last;
      last = n;
      return same;
    },
  );
};

describe('edge metrics', () => {
  test('requests are counted by surface, operation and status, with latency; cache lookups hit and miss', async () => {
    for (let i = 0; i < 2; i++) await (await call('/api/v1/categories')).text();
    await (await call('/api/v1/listings/no-such-listing')).text();
    await (await mcp('list_categories')).text();
    await (await call('/categories')).text();
    await (await call('/no/such/page')).text();
    await metricsWhen((t) => sample(t, 'directory_http_requests_total', { surface: 'pages', operation: 'unmatched', status: '404' }) >= 1);
    const res = await call('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    const req = 'directory_http_requests_total';
    expect(sample(text, req, { surface: 'rest', operation: 'list_categories', status: '200' })).toBe(2);
    expect(sample(text, req, { surface: 'rest', operation: 'get_listing', status: '404' })).toBe(1);
    expect(sample(text, req, { surface: 'mcp', operation: 'list_categories', status: '200' })).toBe(1);
    expect(sample(text, req, { surface: 'pages', operation: '/categories', status: '200' })).toBe(1);
    expect(sample(text, req, { surface: 'pages', operation: 'unmatched', status: '404' })).toBe(1);
    expect(sample(text, 'directory_http_request_duration_seconds_count', { surface: 'rest', operation: 'list_categories' })).toBe(2);
    expect(text).toContain('directory_http_request_duration_seconds_bucket{le="0.001",surface="rest",operation="list_categories"}');
    expect(sample(text, 'directory_cache_lookups_total', { result: 'hit' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'directory_cache_lookups_total', { result: 'miss' })).toBeGreaterThanOrEqual(1);
    expect(text).toContain('directory_edge_process_cpu_seconds_total');
  });

  test('idempotent replays and rate-limit refusals are counted', async () => {
    expect((await submit('first')).status).toBe(201);
    const again = await submit('first');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await submit('second')).status).toBe(201);
    expect((await submit('third')).status).toBe(429); // RATE_LIMIT_WRITES is 3
    const text = await metricsWhen((t) => sample(t, 'directory_http_requests_total', { surface: 'rest', operation: 'submit_listing', status: '429' }) >= 1);
    expect(sample(text, 'directory_idempotent_replays_total', { operation: 'submit_listing' })).toBe(1);
    expect(sample(text, 'directory_rate_limited_total', { surface: 'rest' })).toBe(1);
    expect(sample(text, 'directory_http_requests_total', { surface: 'rest', operation: 'submit_listing', status: '429' })).toBe(1);
  });

  test('with METRICS_TOKEN, /metrics wants it as a bearer token', async () => {
    const locked = buildApp({ ...deps, config: { ...deps.config, metricsToken: 's3cret-token' } });
    const get = (auth?: string) => locked.handle(new Request(`${SITE}/metrics`, { headers: auth ? { authorization: auth } : {} }));
    expect((await get()).status).toBe(401);
    expect((await get('Bearer wrong')).status).toBe(401);
    const ok = await get('Bearer s3cret-token');
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('directory_http_requests_total');
  });
});

describe('request log', () => {
  test('one line per request with request id, operation, status and duration; no raw path', async () => {
    await logQuiet();
    lines.length = 0;
    await (await call('/api/v1/categories', { headers: { 'x-request-id': 'req-abc-123' } })).text();
    await (await call('/account?token=secret-value')).text();
    await eventually(
      async () => lines.filter((l) => l.msg === 'request').length,
      (n) => n >= 2,
    );
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.length).toBe(2);
    expect(requests[0]).toMatchObject({ requestId: 'req-abc-123', method: 'GET', surface: 'rest', operation: 'list_categories', status: 200 });
    expect(typeof requests[0].ms).toBe('number');
    expect(typeof requests[1].requestId).toBe('string');
    expect(JSON.stringify(requests)).not.toContain('secret-value');
  });
});
