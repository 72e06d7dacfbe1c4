import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { operations } from '../registry/index.ts';
import type { Operation } from '../registry/operation.ts';
import { makeCategory, makeCompany, makeListing } from '../../test/builders.ts';

// The official clients, each behind the few calls the tests need.
interface McpTestClient {
  version(): string | undefined;
  instructions(): string | undefined;
  listTools(): Promise<{ tools: { name: string; title?: string; inputSchema: any; outputSchema?: any; annotations?: any; description?: string }[] }>;
  callTool(name: string, args: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

const clientInfo = { name: 'mcp-test', version: '1.0.0' };

async function connect2(url: string, requestId: string, mode: 'auto' | 'legacy' | { pin: string }): Promise<McpTestClient> {
  const client = new Client2(clientInfo, { versionNegotiation: { mode } });
  await client.connect(new Transport2(new URL(url), { requestInit: { headers: { 'x-request-id': requestId } } }));
  return {
    version: () => client.getNegotiatedProtocolVersion(),
    instructions: () => client.getInstructions(),
    listTools: () => client.listTools(),
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    close: () => client.close(),
  };
}

async function connect1(url: string, requestId: string): Promise<McpTestClient> {
  const client = new Client1(clientInfo);
  const transport = new Transport1(new URL(url), { requestInit: { headers: { 'x-request-id': requestId } } });
  await client.connect(transport);
  return {
    version: () => transport.protocolVersion,
    instructions: () => client.getInstructions(),
    listTools: () => client.listTools(),
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    close: () => client.close(),
  };
}

const keysOf = (op: Operation) =>
  [
    ...Object.keys(op.params?.properties ?? {}),
    ...Object.keys(op.query?.properties ?? {}),
    ...Object.keys(op.body?.properties ?? {}),
    // Idempotent operations also take the Idempotency-Key as an argument on MCP.
    ...(op.idempotent ? ['idempotency_key'] : []),
  ].sort();
/** Inputs the caller must send: required and without a default (the validator fills defaults in). */
const requiredOf = (op: Operation) =>
  [...new Set([op.params, op.query, op.body].flatMap((s) => (s?.required ?? []).filter((k: string) => !('default' in (s!.properties[k] as object)))))].sort();
const textOf = (result: any) => result.content.find((c: any) => c.type === 'text').text as string;

// Fixture values for path and required query inputs of public reads, by input name.
const SAMPLES: Record<string, string> = { slug: 'alpha', a: 'alpha', b: 'beta', week: 'this', board: 'community-weekly' };
const OP_SAMPLES: Record<string, Record<string, string>> = { get_category: { slug: 'dev-tools' } };
interface ReadCall {
  label: string;
  op: Operation;
  args: Record<string, string | number>;
  rest: string;
}
/**
 * Each public read, called with the fixtures, with an unknown path input where it takes one, and
 * with typed optional arguments (q, per_page) where it takes them.
 */
function publicReads(): ReadCall[] {
  const calls: ReadCall[] = [];
  for (const op of operations.filter((o) => o.method === 'GET' && o.scope === null)) {
    const pathKeys = Object.keys(op.params?.properties ?? {});
    const queryKeys = Object.keys(op.query?.properties ?? {});
    const needed = [...new Set([...pathKeys, ...requiredOf(op)])];
    if (!needed.every((k) => k in SAMPLES)) continue; // an input these fixtures cannot fill
    const sample = { ...SAMPLES, ...OP_SAMPLES[op.name] };
    const base = Object.fromEntries(needed.map((k) => [k, sample[k]!]));
    const variants: [string, Record<string, string | number>][] = [['', base]];
    if (pathKeys.length) variants.push([' (unknown)', { ...base, ...Object.fromEntries(pathKeys.map((k) => [k, 'no-such-thing'])) }]);
    const optional = { ...(queryKeys.includes('q') ? { q: 'alpha' } : {}), ...(queryKeys.includes('per_page') ? { per_page: 5 } : {}) };
    if (Object.keys(optional).length) variants.push([` (${Object.keys(optional).join(', ')})`, { ...base, ...optional }]);
    for (const [suffix, args] of variants) {
      const path = op.path.replace(/\{(\w+)\}/g, (_m, k) => encodeURIComponent(String(args[k])));
      const query = new URLSearchParams(
        Object.entries(args)
          .filter(([k]) => !pathKeys.includes(k))
          .map(([k, v]) => [k, String(v)]),
      ).toString();
      calls.push({ label: op.name + suffix, op, args, rest: query ? `${path}?${query}` : path });
    }
  }
  return calls;
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    prepare: async (sql, siteId) => {
      const c = await makeCompany(sql, { name: 'Acme', domain: 'acme.test' });
      const cat = await makeCategory(sql, { slug: 'dev-tools', name: 'Developer tools' });
      for (const [slug, status] of [
        ['alpha', 'live'],
        ['beta', 'live'],
        ['gamma', 'draft'],
      ]) {
        await makeListing(sql, {
          siteId,
          companyId: c.id,
          slug,
          domain: 'acme.test',
          status,
          columns: { primary_category_id: cat.id, tagline: 'The ' + slug + ' tool' },
        });
      }
    },
  });
}, 60_000); // the first app of a run also starts the shared PostgreSQL
afterAll(() => app.stop());

const clients: [string, string, (url: string, requestId: string) => Promise<McpTestClient>][] = [
  ['2.x client, negotiating', '2026-07-28', (u, id) => connect2(u, id, 'auto')],
  ['2.x client, pinned', '2026-07-28', (u, id) => connect2(u, id, { pin: '2026-07-28' })],
  ['2.x client, initialize handshake', '2025-11-25', (u, id) => connect2(u, id, 'legacy')],
  ['1.x client', '2025-11-25', connect1],
];

describe.each(clients)('%s', (label, expectedVersion, connect) => {
  let client: McpTestClient;
  const requestId = `mcp-test-${label.replace(/\W+/g, '-')}`;
  beforeAll(async () => {
    client = await connect(`${app.url}/mcp`, requestId);
  }, 30_000);
  afterAll(() => client.close());

  test(`negotiates ${expectedVersion} and gets the instructions`, () => {
    expect(client.version()).toBe(expectedVersion);
    expect(client.instructions()).toContain('bearer token');
  });

  test('lists one tool per registry operation, with the REST inputs as its input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(operations.map((o) => o.name));
    for (const op of operations) {
      const tool = tools.find((t) => t.name === op.name)!;
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(keysOf(op));
      expect([...(tool.inputSchema.required ?? [])].sort()).toEqual(requiredOf(op));
      expect(tool.inputSchema.type).toBe('object');
      // The instructions say once that a tool refuses arguments it does not list.
      expect(tool.inputSchema.additionalProperties).toBeUndefined();
      // readOnlyHint is said only where it is true (false is MCP's default).
      expect(tool.annotations?.readOnlyHint ?? false).toBe(op.method === 'GET');
      // The operation's title and description (the OpenAPI document adds its notes).
      expect(tool.title).toBe(op.summary);
      expect(tool.description).toStartWith(op.description);
      expect(tool.outputSchema).toBeUndefined();
    }
  });

  test('get_site_info returns what GET /api/v1/site returns', async () => {
    const rest = await app.json('/site');
    expect(rest.status).toBe(200);
    const result = await client.callTool('get_site_info', {});
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(rest.body);
    expect(JSON.parse(textOf(result))).toEqual(rest.body);
    expect(result.structuredContent.counts).toEqual({ live_listings: 2, categories: 1, upcoming_listings: 0, founders: 0 });
  });

  test.each(publicReads().map((c) => [c.label, c] as const))('%s returns what its REST GET returns', async (_label, call) => {
    const rest = await app.json(call.rest);
    const result = await client.callTool(call.op.name, call.args);
    if (rest.status === 200) {
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(rest.body);
    } else {
      expect(result.isError).toBe(true);
      const { instance: _a, ...problem } = JSON.parse(textOf(result));
      const { instance: _b, ...restProblem } = rest.body;
      // MCP takes one arguments object, so its field issues do not say where REST carries them.
      if (restProblem.errors) restProblem.errors = restProblem.errors.map(({ in: _in, ...e }: any) => e);
      expect(problem).toEqual(restProblem);
    }
  });

  test('an unknown argument is a tool error naming it, with the REST problem', async () => {
    const result = await client.callTool('get_site_info', { foo: 1 });
    expect(result.isError).toBe(true);
    const problem = JSON.parse(textOf(result));
    expect(problem).toMatchObject({ status: 400, title: 'Invalid request', type: `${app.url}/problems/validation`, code: 'invalid_input' });
    expect(problem.errors).toEqual([{ field: 'foo', message: 'is not a known field' }]);
    // The HTTP request reached the operation context: its request id is the problem's instance.
    expect(problem.instance).toBe(requestId);
  });

  test('an out-of-bounds per_page is a tool error naming per_page', async () => {
    const paged = operations.filter((op) => op.scope === null && op.query?.properties?.per_page && requiredOf(op).length === 0);
    for (const op of paged) {
      const result = await client.callTool(op.name, { per_page: 500 });
      expect(result.isError).toBe(true);
      expect(JSON.parse(textOf(result)).errors.map((e: any) => e.field)).toContain('per_page');
    }
  });

  test('a string where the schema wants an integer or a boolean is not converted', async () => {
    for (const op of operations.filter((o) => o.scope === null && requiredOf(o).length === 0)) {
      for (const [key, prop] of Object.entries(op.query?.properties ?? {})) {
        if (!['integer', 'boolean'].includes((prop as { type?: string }).type ?? '')) continue;
        const result = await client.callTool(op.name, { [key]: 'x' });
        expect(result.isError).toBe(true);
        expect(JSON.parse(textOf(result)).errors.map((e: any) => e.field)).toEqual([key]);
      }
    }
  });

  test('an unknown tool is a protocol error', async () => {
    let error: any;
    try {
      await client.callTool('no_such_tool', {});
    } catch (e) {
      error = e;
    }
    expect(error).toBeDefined();
    expect(String(error.message ?? error)).toContain('no_such_tool');
  });
});
