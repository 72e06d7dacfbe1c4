import { type Executed, isCacheable, readKey } from '../http/execute.ts';
import { readMemo } from '../http/read-memo.ts';
import { BODY_LIMITS } from '../../core/validation/limits.ts';
import { finishedHeaders, markFinished } from '../http/wire.ts';
import type { OperationContext } from '../registry/operation.ts';
import { runTool, type ToolSpec, validateArguments } from './tools.ts';

/** A tools/call the fast path may answer: its JSON-RPC id, its tool and its arguments. */
export interface PlainReadCall {
  id: string | number;
  spec: ToolSpec;
  args: unknown;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const only = (o: Record<string, unknown>, keys: Set<string>) => Object.keys(o).every((k) => keys.has(k));
const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAM_KEYS = new Set(['name', 'arguments']);

/**
 * The exchange agents repeat most is one tools/call of a public read on the stateless 2025 leg.
 * Connecting a server and a transport for it costs several times the cached read itself, so such
 * a call, when it is plainly well formed, is answered here with what the SDK would send: the same
 * callTool result in the same JSON-RPC envelope (a test compares the two byte for byte). Anything
 * else (other methods, batches, `_meta` such as a progress token, headers the SDK would refuse,
 * tools that write or need a credential) is left to the SDK, which stays the protocol's authority.
 */
export function plainReadCalls(specs: ToolSpec[], legacyVersions: string[]) {
  const reads = new Map(specs.filter((s) => isCacheable(s.op)).map((s) => [s.name, s]));
  const versions = new Set(legacyVersions);
  return (request: Request, body: unknown): PlainReadCall | null => {
    if (request.method !== 'POST' || !isPlainObject(body) || !only(body, MESSAGE_KEYS)) return null;
    const { jsonrpc, id, method, params } = body;
    if (jsonrpc !== '2.0' || method !== 'tools/call' || !isPlainObject(params) || !only(params, PARAM_KEYS)) return null;
    if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return null;
    const spec = typeof params.name === 'string' ? reads.get(params.name) : undefined;
    if (!spec || (params.arguments !== undefined && !isPlainObject(params.arguments))) return null;
    const h = request.headers;
    if (!versions.has(h.get('mcp-protocol-version') ?? '')) return null;
    if (!/^application\/json\s*(;\s*charset=utf-8\s*)?$/i.test(h.get('content-type') ?? '')) return null;
    const accept = h.get('accept') ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return null;
    return { id, spec, args: params.arguments };
  };
}

/**
 * The result member of an answer, written from its JSON text: the same bytes as stringifying
 * toolResultOf(out), without parsing the body only to write it again. Remembered per cached answer.
 * Spliced as text on purpose: parsing a cached get_listing and stringifying the envelope took the
 * fast path from 39-61 us to 63-66 us of CPU (`BENCH_LISTINGS=500 bun bench/mcp-paths.ts`,
 * 2026-11-28); the body is JSON the edge wrote or PostgreSQL returned, and plain-read.test.ts
 * holds the result equal to the SDK's.
 */
const resultTexts = new WeakMap<Executed, string>();
function resultText(out: Executed): string {
  let text = resultTexts.get(out);
  if (text === undefined) {
    text = `{"content":[{"type":"text","text":${JSON.stringify(out.body)}}],"structuredContent":${out.body}}`;
    resultTexts.set(out, text);
  }
  return text;
}

/**
 * Whether a value holds arrays or objects nested more than `depth` levels deep (looks no deeper).
 * Only the depth, before the cache key is written: the full check (bodyIssues, in validation) also
 * reads every string, which a remembered call never needs.
 */
function nestedDeeper(v: unknown, depth: number): boolean {
  if (v === null || typeof v !== 'object') return false;
  if (depth === 0) return true;
  for (const k in v) if (nestedDeeper((v as Record<string, unknown>)[k], depth - 1)) return true;
  return false;
}

/**
 * The validated input and cache key of a plain read's arguments, remembered by tool and arguments
 * as REST remembers them by URL (read-memo.ts): validating get_listing's arguments again cost about
 * 1.3 µs of a cached call's CPU. Only valid arguments are remembered; the rest are validated, and
 * refused, each time.
 */
function plainReadPlans() {
  const memo = readMemo();
  return (spec: ToolSpec, args: unknown) => {
    // Arguments nested deeper than any valid input are not written out: JSON.stringify of 50,000
    // nested arrays (a 100 KB body) spent about 650 ms of the edge's CPU before it gave up.
    const text = nestedDeeper(args, BODY_LIMITS.depth) ? null : `${spec.name}\n${JSON.stringify(args)}`;
    const known = text === null ? undefined : memo.get(text);
    if (known) return known;
    const input = validateArguments(spec, args);
    const key = readKey(spec.op, input);
    return text === null ? { input, key } : memo.remember(text, input, key);
  };
}

/**
 * The JSON-RPC responder of plain read calls, as the SDK's JSON leg answers them. Its headers
 * (media type, and what the wire adds: finishedHeaders) are the same for every call, so they are
 * built once and copied; `perRequest` (the rate limits) is set on each.
 */
export function plainReadResponder(always: Record<string, string>) {
  const plans = plainReadPlans();
  const headers = new Headers(finishedHeaders('/mcp', { 'content-type': 'application/json' }, always));
  return async (call: PlainReadCall, ctx: OperationContext, deps: Parameters<typeof runTool>[3], perRequest: Record<string, string>): Promise<Response> => {
    const outcome = await runTool(call.spec, call.args, ctx, deps, plans);
    const result = 'out' in outcome ? resultText(outcome.out) : JSON.stringify(outcome.failed);
    const response = new Response(`{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`, { status: 200, headers });
    for (const k in perRequest) response.headers.set(k, perRequest[k]);
    return markFinished(response);
  };
}
