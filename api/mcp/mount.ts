import {
  type AuthInfo,
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { Elysia } from 'elysia';
import { resourcesOf } from '../auth/challenge.ts';
import { resolvePrincipal } from '../auth/principal.ts';
import type { AppDeps } from '../deps.ts';
import { operationContext } from '../http/context.ts';
import { problem, problemResponse } from '../http/problem.ts';
import { rateGate } from '../http/rate-gate.ts';
import { carryPeerAddress } from '../http/rate-limit.ts';
import { operations } from '../registry/index.ts';
import type { Operation } from '../registry/operation.ts';
import { callTool, toolSpecsOf, type JsonSchema, type ToolSpec } from './tools.ts';
import { answerPlainRead, plainReadCalls } from './fast-call.ts';
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

/** A body read into memory. */
type Bytes = Uint8Array<ArrayBuffer>;

/** Calls that leave nothing behind on the server that answered them (initialize keeps the client's capabilities). */
const STATELESS_METHODS = new Set(['tools/call', 'tools/list', 'ping']);
const leavesNoState = (body: unknown) =>
  !Array.isArray(body) && body !== null && typeof body === 'object' && STATELESS_METHODS.has((body as { method?: unknown }).method as string);

/** The MCP server at /mcp: one tool per operation, credentials resolved for the MCP resource. */
export function mcpPlugin(
  deps: Pick<AppDeps, 'config' | 'sql' | 'readSql' | 'site' | 'cache' | 'log' | 'limiter' | 'vocabulary'>,
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

  const handler = createMcpHandler(factory, { legacy: 'stateless', maxRequestBodySize: config.maxBodyBytes });

  // 2025-era POSTs: the SDK's stateless leg always answers with an SSE stream, though the
  // transport spec lets a server answer a request with plain JSON. Our tools emit nothing
  // before their result, so a JSON response carries the same messages at a fraction of the
  // cost; the body the auth gate already parsed is handed on instead of being read again.
  // Building a server registers every tool (schemas included) and costs more than the tool call
  // itself, so this leg keeps idle servers and connects one to a fresh transport per request:
  // still one exchange per server at a time (the SDK's rule), and nothing of a request outlives
  // it, since the credential and the request travel with the transport's message, not the server.
  const idle: McpServer[] = [];
  const MAX_IDLE = 64;
  const plainRead =
    opts.plainReads === false
      ? () => null
      : plainReadCalls(
          specs,
          MCP_PROTOCOL_VERSIONS.filter((v) => v.startsWith('2025-')),
        );
  const legacyJson = async (incoming: Request, bytes: Bytes | null, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response> => {
    const request = buffered(incoming, bytes);
    const server = idle.pop() ?? factory({});
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    let reusable = true;
    try {
      return await transport.handleRequest(request, { parsedBody, authInfo });
    } catch (err) {
      reusable = false;
      throw err;
    } finally {
      await transport.close();
      await server.close();
      if (reusable && leavesNoState(parsedBody) && !server.isConnected() && idle.length < MAX_IDLE) idle.push(server);
    }
  };
  // The incoming request's body is already read: the SDK gets a buffered copy of it.
  // A plain read names a 2025 version and carries no _meta, so no 2026-07-28 envelope claim: the
  // SDK's era check (isLegacyRequest, a zod parse of the message) would call it legacy, and is skipped.
  const route = async (incoming: Request, bytes: Bytes | null, body: unknown, authInfo: AuthInfo | undefined): Promise<Response> => {
    const call = plainRead(incoming, body);
    if (call) {
      const opCtx = operationContext(deps, incoming, { principal: principalOf(authInfo), rejected: false });
      return answerPlainRead(call, opCtx, { siteUrl: config.siteUrl, logError });
    }
    return body !== undefined && (await isLegacyRequest(incoming, body, { maxRequestBodySize: config.maxBodyBytes }))
      ? legacyJson(incoming, bytes, body, authInfo)
      : handler.fetch(buffered(incoming, bytes), { authInfo });
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
    return allowed ? null : problemResponse(problem(config.siteUrl, 'forbidden', `Origin ${origin.slice(0, 200)} may not use this MCP endpoint.`));
  };

  // The body is read here, counting bytes as they arrive, so that a chunked body (no
  // Content-Length) is held to the same cap as a declared one; it is parsed once, and the SDK
  // gets a buffered copy only when it is the one to answer.
  const tooLarge = () => problemResponse(problem(config.siteUrl, 'payload-too-large', `The body is larger than ${config.maxBodyBytes} bytes.`));
  const readBody = async (request: Request): Promise<Bytes | null | Response> => {
    const declared = request.headers.get('content-length');
    if (Number(declared ?? 0) > config.maxBodyBytes) return tooLarge();
    if (!request.body) return null;
    // A declared length is the body's length (HTTP framing holds the client to it), so the body is
    // read natively: a stream reader cost about a fifth of a cached tools/call's CPU.
    if (declared !== null) return new Uint8Array(await request.arrayBuffer()) as Bytes;
    const reader = request.body.getReader();
    const chunks: Bytes[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > config.maxBodyBytes) {
        await reader.cancel().catch(() => {});
        return tooLarge();
      }
      chunks.push(value as Bytes);
    }
    if (chunks.length === 1) return chunks[0];
    const body = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      body.set(c, at);
      at += c.byteLength;
    }
    return body;
  };
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
    const bytes = await readBody(incoming);
    if (bytes instanceof Response) return bytes;
    const g = await gate(incoming, parseJson(bytes));
    noteMcpCall(incoming, g.body);
    const limit = await rateLimit(incoming, g, g.write);
    if (limit.refused) return limit.refused;
    const authInfo = g.principal ? authInfoOf(g.principal, incoming, resource) : undefined;
    return withHeaders(g.denial ?? (await route(incoming, bytes, g.body, authInfo)), limit.headers);
  };
  // parse: 'none' leaves the body unread for the SDK. Every method goes to the SDK: GET and DELETE
  // are 405 on the stateless leg (there is no session to stream on or end), as are other methods.
  return new Elysia({ name: 'mcp' }).all('/mcp', ({ request }) => serve(request), { parse: 'none' });
}
