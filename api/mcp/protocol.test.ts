import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { operations } from '../registry/index.ts';
import { plainSchema } from '../registry/inputs.ts';
import { makeApiKey, makeListing } from '../../test/builders.ts';

// The 2025 protocol versions no installed client speaks (the 1.x client always offers 2025-11-25),
// spoken by hand: each POST stands alone, as it does for any client of a stateless server.

let app: TestApp;
// Generous: the first app of a run also starts the shared PostgreSQL.
beforeAll(async () => {
  app = await startTestApp({ socket: false });
}, 60_000);
afterAll(() => app.stop());

let nextId = 1;
async function rpc(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  const id = nextId++;
  const res = await app.fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const text = await res.text();
  // A JSON body or an SSE stream whose data lines carry the JSON-RPC messages.
  const messages = res.headers.get('content-type')?.startsWith('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)))
    : [JSON.parse(text)];
  return { status: res.status, headers: res.headers, message: messages.find((m) => m.id === id) ?? messages[0] };
}

const initialize = (protocolVersion: string) => rpc('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'by-hand', version: '1.0.0' } });

describe.each(['2025-03-26', '2025-06-18', '2025-11-25'])('protocol %s', (version) => {
  test('initialize agrees on the version and names the server', async () => {
    const { status, message } = await initialize(version);
    expect(status).toBe(200);
    expect(message.result).toMatchObject({
      protocolVersion: version,
      serverInfo: { name: 'listing-directory', version: '1.0.0' },
      capabilities: { tools: {} },
    });
    expect(message.result.instructions).toContain('bearer token');
  });

  test('tools/list and tools/call work without a session', async () => {
    const headers = { 'mcp-protocol-version': version };
    const list = await rpc('tools/list', {}, headers);
    expect(list.message.result.tools.map((t: { name: string }) => t.name)).toEqual(operations.map((o) => o.name));
    const call = await rpc('tools/call', { name: 'get_site_info', arguments: {} }, headers);
    expect(call.headers.get('mcp-session-id')).toBeNull();
    // One JSON body, not an SSE stream: nothing is sent before a tool's result.
    expect(call.headers.get('content-type')).toStartWith('application/json');
    const rest = await app.json('/site');
    expect(call.message.result.structuredContent).toEqual(rest.body);
    expect(JSON.parse(call.message.result.content[0].text)).toEqual(rest.body);
  });
});

describe('version negotiation and transport rules', () => {
  test('an older version offered in initialize gets 2025-11-25 back', async () => {
    expect((await initialize('2024-11-05')).message.result.protocolVersion).toBe('2025-11-25');
  });

  test('a request naming an unsupported version in its header is refused', async () => {
    const { status, message } = await rpc('tools/list', {}, { 'mcp-protocol-version': '2024-11-05' });
    expect(status).toBe(400);
    expect(message.error.message).toContain('2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26');
  });

  test('an unknown tool is JSON-RPC invalid params', async () => {
    const { message } = await rpc('tools/call', { name: 'no_such_tool', arguments: {} }, { 'mcp-protocol-version': '2025-06-18' });
    expect(message.error.code).toBe(-32602);
  });

  test.each(['GET', 'DELETE', 'PUT'])('%s is 405: a stateless server has no stream to open or session to end', async (method) => {
    const res = await app.fetch(`${app.url}/mcp`, { method, headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  test('browser pages of this site are served; other origins and a page whose name was rebound to this server are refused', async () => {
    expect((await rpc('tools/list', {}, { origin: app.url, 'mcp-protocol-version': '2025-11-25' })).status).toBe(200);
    expect((await rpc('tools/list', {}, { origin: 'https://elsewhere.test', 'mcp-protocol-version': '2025-11-25' })).status).toBe(403);
    const port = new URL(app.url).port;
    const rebound = await rpc('tools/list', {}, { origin: 'http://rebound.test', host: `rebound.test:${port}`, 'mcp-protocol-version': '2025-11-25' });
    expect(rebound.status).toBe(403);
  });

  test('tools/list stays small: inputs keep their bounds and enums (the size is held in tools-list.test.ts)', async () => {
    const res = await app.fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    const text = await res.text();
    // Measured: 220 KB with whole output schemas, 98 KB with compact outputs, 39.7 KB with outputs
    // shown once and named after and one-sentence descriptions; 35.4 KB with titles, descriptions
    // written for models and no output schemas. Every agent pays for it in context.
    expect(text.length).toBeLessThan(40_000);
    const tools = JSON.parse(text).result.tools as { name: string; description: string; inputSchema: any; outputSchema?: unknown }[];
    for (const t of tools) expect(t.outputSchema).toBeUndefined();
    const search = tools.find((t) => t.name === 'search_listings')!;
    // Inputs keep what a caller needs to build a valid call: required arguments, enums and bounds.
    expect(search.inputSchema.properties.per_page).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(search.inputSchema.properties.sort.enum).toContain('relevance');
    expect(tools.find((t) => t.name === 'get_listing')!.inputSchema.required).toEqual(['slug']);
    expect(text).not.toMatch(/"pattern":/);
    // Cut descriptions end at a sentence, never inside "(e.g. a UUID)".
    const descriptions = [...text.matchAll(/"description":"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);
    expect(descriptions.length).toBeGreaterThan(100);
    for (const d of descriptions) expect({ d, unclosed: d.split('(').length - d.split(')').length }).toEqual({ d, unclosed: 0 });
    expect(text).not.toMatch(/e\.g\.(?:"|\))/);
  });

  test("every structured result validates against the operation's output schema, as the OpenAPI document states it (Ajv)", async () => {
    const headers = { 'mcp-protocol-version': '2025-11-25' };
    const [site] = await app.sql<{ id: number }[]>`select id from sites where is_self`;
    await makeListing(app.sql, { siteId: site.id, slug: 'schema-check', name: 'Schema Check' });
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const calls: [string, Record<string, unknown>][] = [
      ['get_listing', { slug: 'schema-check' }],
      ['search_listings', { q: 'schema' }],
      ['list_categories', {}],
      ['get_launch_week', { week: 'this' }],
      ['get_leaderboard', { board: 'community-all-time' }],
      ['list_launches', {}],
      ['get_site_info', {}],
      ['list_products', {}],
      ['get_badges', { slug: 'schema-check' }],
    ];
    for (const [name, args] of calls) {
      const result = (await rpc('tools/call', { name, arguments: args }, headers)).message.result;
      expect({ name, isError: result.isError ?? false }).toEqual({ name, isError: false });
      const validate = ajv.compile(plainSchema(operations.find((o) => o.name === name)!.output));
      expect({ name, valid: validate(result.structuredContent), errors: validate.errors ?? null }).toEqual({ name, valid: true, errors: null });
      // The schema is not vacuous: the first member with a value of another type fails it.
      const [first, value] = Object.entries(result.structuredContent)[0]!;
      const wrong = typeof value === 'string' || value === null ? 12345 : 'text';
      expect({ name, first, valid: validate({ ...result.structuredContent, [first]: wrong }) }).toEqual({ name, first, valid: false });
    }
  });

  test('a body that is not JSON is 415', async () => {
    const res = await app.fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
      body: 'hello',
    });
    expect(res.status).toBe(415);
  });
});

test('the server that answered one call carries nothing into the next (servers are reused between plain calls)', async () => {
  const headers = { 'mcp-protocol-version': '2025-11-25' };
  const [alice] = await app.sql<{ id: string }[]>`insert into users (email) values ('reuse-alice@example.test') returning id::text`;
  const [bob] = await app.sql<{ id: string }[]>`insert into users (email) values ('reuse-bob@example.test') returning id::text`;
  const aliceKey = await makeApiKey(app.sql, alice, ['account:read']);
  const bobKey = await makeApiKey(app.sql, bob, ['account:read']);
  const [site] = await app.sql<{ id: number }[]>`select id from sites where is_self`;
  await makeListing(app.sql, { siteId: site.id, slug: 'alice-only', columns: { owner_user_id: alice.id } });
  const mine = async (key: string) =>
    (await rpc('tools/call', { name: 'list_my_listings', arguments: {} }, { ...headers, authorization: `Bearer ${key}` })).message.result;
  for (let round = 0; round < 3; round++) {
    expect((await mine(aliceKey)).structuredContent.items.map((l: { slug: string }) => l.slug)).toEqual(['alice-only']);
    expect((await mine(bobKey)).structuredContent.items).toEqual([]);
    // Without a credential the call is challenged at the HTTP level, as it always was.
    expect((await rpc('tools/call', { name: 'list_my_listings', arguments: {} }, headers)).status).toBe(401);
  }
});
