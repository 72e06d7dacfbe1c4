import {
  type AuthInfo,
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  type StandardSchemaWithJSON,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { Elysia } from 'elysia';
import { resourcesOf } from '../auth/challenge.ts';
import { resolvePrincipal } from '../auth/principal.ts';
import type { AppDeps } from '../deps.ts';
import { operationContext } from '../http/context.ts';
import { problem, problemResponse } from '../http/problem.ts';
import { rateGate } from '../http/rate-gate.ts';
import { carryPeerAddress } from '../http/rate-limit.ts';
import { type Bytes, readBody, TOO_LARGE } from '../http/body.ts';
import { operations } from '../registry/index.ts';
import type { Operation } from '../registry/operation.ts';
import { callTool, toolSpecsOf, type JsonSchema, type ToolSpec } from './tools.ts';
import { plainReadCalls, plainReadResponder } from './fast-call.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { mcpAuthGate } from './auth-gate.ts';
import { noteMcpCall } from '../observability/edge-observability.ts';
import { authInfoOf, principalOf } from './auth-info.ts';

/** 2026-07-28 through server/discover; the initialize-based 2025 versions through the stateless legacy leg. */
export const MCP_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];

export const SERVER_INFO = { name: 'listing-directory', version: '1.0.0' };

export const INSTRUCTIONS = [
  'A public directory of software products: listings with profiles, categories, a weekly launch calendar,',
  'leaderboards, awards, founders and a blog. Every tool is one operation of the REST API under /api/v1,',
  'with the same name, the same inputs and the same JSON result (also given as structuredContent).',
  'Read tools need no sign-in. Tools that change or read your own data (drafts, listings, claims, orders)',
  'need a bearer token (OAuth access token or API key) with the scope the tool names.',
  'Tools that change data take an optional idempotency_key: any unique string of 1 to 255 printable ASCII',
  'characters (a UUID, say); a retry with the same key and arguments returns the first result instead of',
  'acting twice. Lists take page (from 1) and per_page (entries per page) and answer with items, page,',
  'per_page, total and has_more. A tool refuses arguments its input schema does not list, naming each.',
  'Errors come back as tool results with isError and an RFC 9457 problem; for invalid arguments its',
  '`errors` list names each offending field.',
].join(' ');

/**
 * The registry's schemas are JSON Schema already. The SDK wants a Standard Schema that can print
 * itself as JSON Schema; validation passes everything through because callTool validates with the
 * REST validator, so both surfaces reject the same inputs with the same messages.
 */
function asStandardSchema(schema: JsonSchema): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'listing-directory',
      validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}

/** The MCP server at /mcp: one tool per operation, credentials resolved for the MCP resource. */
export function mcpPlugin(
  deps: Pick<AppDeps, 'config' | 'sql' | 'readSql' | 'site' | 'cache' | 'log' | 'limiter'>,
  ops: Operation[] = operations,
  // Off only in the test that compares the plain-read path with the SDK's own answer.
  opts: { plainReads?: boolean } = {},
) {
  const { config } = deps;
  const resource = resourcesOf(config).mcp;
  const rateLimit = rateGate(deps.limiter, config);
  const logError = (err: unknown, meta: object) => deps.log.error({ err, ...meta }, 'operation failed');
  const specs: ToolSpec[] = toolSpecsOf(ops);
  const schemas = new Map(specs.map((s) => [s.name, { input: asStandardSchema(s.inputSchema) }]));

  // One fresh server per HTTP request (stateless, so any instance behind a load balancer can answer).
  const factory = ({ requestInfo }: { requestInfo?: Request }) => {
    const server = new McpServer(SERVER_INFO, {
      instructions: INSTRUCTIONS,
      supportedProtocolVersions: MCP_PROTOCOL_VERSIONS,
      capabilities: { tools: { listChanged: false } },
      // The tool list changes only with a deploy; 2026-07-28 clients may cache it.
      cacheHints: { 'tools/list': { ttlMs: 300_000, cacheScope: 'public' }, 'server/discover': { ttlMs: 300_000, cacheScope: 'public' } },
    });
    for (const spec of specs) {
      const schema = schemas.get(spec.name)!;
      server.registerTool(
        spec.name,
        {
          title: spec.title,
          description: spec.description,
          annotations: spec.annotations,
          inputSchema: schema.input,
        },
        async (args, ctx) => {
          // The credential arrives as the SDK's authInfo, resolved once by the auth gate; the HTTP
          // request still gives the request id and the Idempotency-Key header.
          const request = ctx.http?.req ?? requestInfo ?? new Request(`${config.siteUrl}/mcp`, { method: 'POST' });
          const opCtx = operationContext(deps, request, { principal: principalOf(ctx.http?.authInfo), rejected: false });
          return callTool(spec, args, opCtx, { siteUrl: config.siteUrl, logError });
        },
      );
    }
    return server;
  };

  // The SDK, as its documentation composes the two eras: 2026-07-28 requests through
  // createMcpHandler, 2025-era ones through a streamable HTTP transport of their own, so that they
  // can be answered with plain JSON (the SDK's stateless leg always answers with an SSE stream,
  // though the transport spec lets a server answer a request with JSON; our tools emit nothing
  // before their result, so one JSON body carries the same messages).
  const modern = createMcpHandler(factory, { legacy: 'reject', maxRequestBodySize: config.maxBodyBytes });
  const legacy = async (request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response> => {
    const server = factory({});
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody, authInfo });
    } finally {
      await transport.close();
      await server.close();
    }
  };
  const sdk = async (incoming: Request, bytes: Bytes | null, body: unknown, authInfo: AuthInfo | undefined): Promise<Response> => {
    // The body was read (and capped) once, in serve(): the SDK gets it parsed, and a buffered copy
    // only when it is not JSON, to answer with its own parse error.
    if (body === undefined) return modern.fetch(buffered(incoming, bytes), { authInfo });
    if (await isLegacyRequest(incoming, body, { maxRequestBodySize: config.maxBodyBytes })) return legacy(incoming, body, authInfo);
    return modern.fetch(incoming, { authInfo, parsedBody: body });
  };

  // Two ways in for a tools/call, no more. The SDK answers every message (any protocol version,
  // batches, _meta, tools that write or need a credential): it is the protocol's authority. The
  // fast path (fast-call.ts) answers only a plainly well-formed 2025 tools/call of a public read,
  // with the bytes the SDK would send (plain-read.test.ts compares them), through the same public-
  // read pipeline. It exists because the SDK builds and connects a server for each request: a
  // cached get_listing cost the edge 39-61 us of CPU on the fast path against 187-263 us through
  // the SDK (`BENCH_LISTINGS=500 bun bench/mcp-paths.ts`, 2026-11-28, three runs of two alternating
  // rounds on a shared machine), and tools/call of public reads is most of what agents send.
  // The SDK path no longer keeps idle servers for reuse: with them it measured 185-211 us, within
  // the noise of the figures above, so the simpler code stays.
  const plainRead =
    opts.plainReads === false
      ? () => null
      : plainReadCalls(
          specs,
          MCP_PROTOCOL_VERSIONS.filter((v) => v.startsWith('2025-')),
        );
  const answerPlainRead = plainReadResponder(securityHeaders(config));
  const route = async (
    incoming: Request,
    bytes: Bytes | null,
    body: unknown,
    authInfo: AuthInfo | undefined,
    limits: Record<string, string>,
  ): Promise<Response> => {
    const call = plainRead(incoming, body);
    if (call) {
      const opCtx = operationContext(deps, incoming, { principal: principalOf(authInfo), rejected: false });
      return answerPlainRead(call, opCtx, { siteUrl: config.siteUrl, logError }, limits);
    }
    return withHeaders(await sdk(incoming, bytes, body, authInfo), limits);
  };
  // DNS-rebinding guard the transport spec asks for: a browser page from another origin (scheme,
  // host and port, not the host alone) gets 403, unless MCP_ALLOWED_ORIGINS names it (browser apps
  // of other origins, calling with a bearer token). Requests without Origin are not from a browser page.
  const allowedOrigins = new Set([new URL(config.siteUrl).origin, ...config.mcpAllowedOrigins]);
  const foreignOrigin = (request: Request): Response | null => {
    const origin = request.headers.get('origin');
    if (origin === null) return null;
    let allowed = false;
    try {
      allowed = allowedOrigins.has(new URL(origin).origin);
    } catch {
      allowed = false;
    }
    return allowed ? null : problemResponse(request, problem(config.siteUrl, 'forbidden', `Origin ${origin.slice(0, 200)} may not use this MCP endpoint.`));
  };

  // The body is read here, counting bytes as they arrive, so that a chunked body (no
  // Content-Length) is held to the same cap as a declared one; it is parsed once, and the SDK
  // gets a buffered copy only when it is the one to answer.
  const tooLarge = (request: Request) =>
    problemResponse(request, problem(config.siteUrl, 'payload-too-large', `The body is larger than ${config.maxBodyBytes} bytes.`));
  const parseJson = (bytes: Bytes | null): unknown => {
    if (!bytes?.byteLength) return undefined;
    try {
      return JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return undefined; // not JSON: the SDK answers with a parse error
    }
  };
  const buffered = (request: Request, body: Bytes | null): Request => {
    if (body === null) return request;
    const headers = new Headers(request.headers);
    headers.delete('transfer-encoding');
    headers.set('content-length', String(body.byteLength));
    return carryPeerAddress(request, new Request(request.url, { method: request.method, headers, body, signal: request.signal }));
  };
  const gate = mcpAuthGate(ops, { config, resolve: (request) => resolvePrincipal(deps.sql, request.headers.get('authorization'), resource) });
  // In place where the runtime allows it: a copy would turn the buffered JSON body into a stream.
  const withHeaders = (res: Response, headers: Record<string, string>) => {
    try {
      for (const k in headers) res.headers.set(k, headers[k]);
      return res;
    } catch {
      const out = new Response(res.body, res);
      for (const k in headers) out.headers.set(k, headers[k]);
      return out;
    }
  };
  const serve = async (incoming: Request) => {
    const refused = foreignOrigin(incoming);
    if (refused) return refused;
    const bytes = await readBody(incoming, config.maxBodyBytes);
    if (bytes === TOO_LARGE) return tooLarge(incoming);
    const g = await gate(incoming, parseJson(bytes));
    noteMcpCall(incoming, g.body);
    const limit = await rateLimit(incoming, g, g.write);
    if (limit.refused) return limit.refused;
    const authInfo = g.principal ? authInfoOf(g.principal, incoming, resource) : undefined;
    return g.denial ? withHeaders(g.denial, limit.headers) : route(incoming, bytes, g.body, authInfo, limit.headers);
  };
  // parse: 'none' leaves the body unread for the SDK. Every method goes to the SDK: GET and DELETE
  // are 405 on the stateless leg (there is no session to stream on or end), as are other methods.
  return new Elysia({ name: 'mcp' }).all('/mcp', ({ request }) => serve(request), { parse: 'none' });
}
