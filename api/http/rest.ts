import { Elysia } from 'elysia';
import { DomainError } from '../../core/errors/index.ts';
import type { Operation, OperationContext } from '../registry/operation.ts';
import { type Executed, execute, isCacheable, pagingOf, readKey } from './execute.ts';
import { abandonedAnswer, answerKept, answerRead } from './public-read.ts';
import { finishedHeaders, pathnameOf } from './wire.ts';
import { planLinks, readMemo, type ReadPlan } from './read-memo.ts';
import type { Paging } from './cache.ts';
import { errorHeaders, problemFromError, problemResponse } from './problem.ts';
import { validateInput } from './validate.ts';
import { readBody, TOO_LARGE } from './body.ts';
import type { RateGate } from './rate-gate.ts';
import { authorize } from './authorize.ts';
import { idempotencyHeaders } from './idempotency.ts';
import type { Config } from '../../core/config.ts';
import { bearerChallenge, resourcesOf } from '../auth/challenge.ts';

/** WWW-Authenticate for a 401 or a missing scope's 403, naming the REST resource's metadata. */
export function authChallenge(config: Config, status: number, op: Operation, ctx: OperationContext, resource: string): Record<string, string> {
  if (status === 401) return { 'www-authenticate': bearerChallenge(config, resource, ctx.credentialRejected ? { error: 'invalid_token' } : {}) };
  if (status === 403 && op.scope) return { 'www-authenticate': bearerChallenge(config, resource, { error: 'insufficient_scope', scope: op.scope }) };
  return {};
}

export type ContextFactory = (request: Request) => Promise<OperationContext>;
export type ErrorLogger = (err: unknown, ctx: { requestId: string; operation: string }) => void;

const JSON_TYPE = 'application/json; charset=utf-8';

const toElysiaPath = (path: string) => path.replace(/\{([a-z_]+)\}/g, ':$1');

/** Reads a JSON body within the size cap: 413 past it, 415 for another media type, 400 for bad JSON. */
async function readJson(request: Request, maxBytes: number): Promise<unknown> {
  const buf = await readBody(request, maxBytes);
  if (buf === TOO_LARGE) throw new DomainError('too_large', `The body is larger than ${maxBytes} bytes.`);
  if (!buf?.byteLength) return undefined;
  const type = request.headers.get('content-type') ?? '';
  if (type && !/^application\/([a-z.+-]*\+)?json\b/i.test(type)) {
    throw new DomainError('unsupported_media_type', 'Request bodies must be application/json.');
  }
  try {
    return JSON.parse(new TextDecoder().decode(buf));
  } catch {
    throw new DomainError('malformed_json', 'The body is not valid JSON.');
  }
}

/**
 * RFC 8288 links to the next and previous pages of a paginated list, from the page the body
 * reports (page, per_page, has_more), keeping every other query parameter as sent.
 */
export function pageLinks(base: string, query: URLSearchParams, paging: Paging | undefined): string | null {
  if (!paging) return null;
  const { page, has_more } = paging;
  const at = (n: number) => {
    const q = new URLSearchParams(query);
    q.set('page', String(n));
    return `<${base}?${q}>`;
  };
  const links: string[] = [];
  if (has_more === true) links.push(`${at(page + 1)}; rel="next"`);
  if (page > 1) links.push(`${at(page - 1)}; rel="prev"`);
  return links.length ? links.join(', ') : null;
}

/** The query string as an object; most reads have none, and then no URL is parsed. */
function queryObject(url: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const q = url.indexOf('?');
  if (q < 0) return out;
  for (const [k, v] of new URLSearchParams(url.slice(q + 1).replace(/#.*$/, ''))) {
    if (k in out)
      out[k] = ([] as unknown[]).concat(out[k], v); // repeated keys fail validation as arrays
    else out[k] = v;
  }
  return out;
}

/** One route per operation. Built in a loop, so the instance's type names no route. */
export function restRoutes(
  prefix: string,
  ops: Operation[],
  deps: {
    makeContext: ContextFactory;
    rateLimit: RateGate;
    config: Config;
    siteUrl: string;
    maxBodyBytes: number;
    httpMaxAge: number;
    logError: ErrorLogger;
    /** The wire's headers for every response (securityHeaders), which a cached answer carries from the start. */
    always: Record<string, string>;
  },
) {
  const app = new Elysia({ name: 'rest' });
  for (const op of ops) {
    const cacheable = isCacheable(op);
    const paginated = op.method === 'GET' && op.query?.properties.page !== undefined;
    const memo = cacheable ? readMemo() : undefined;
    /** `headers` with the Link header of a paginated answer. */
    const linked = (requestUrl: string, plan: ReadPlan | undefined, out: Executed, headers: Record<string, string>) => {
      if (!paginated) return headers;
      const links = (paging: Paging | undefined) => {
        const url = new URL(requestUrl);
        return pageLinks(`${deps.siteUrl}${url.pathname}`, url.searchParams, paging);
      };
      const paging = out.paging ?? pagingOf(JSON.parse(out.body));
      const link = plan ? planLinks(plan, paging, links) : links(paging);
      if (link) headers.link = link;
      return headers;
    };
    const handler = async ({ request, params }: { request: Request; params: Record<string, string> }) => {
      const ctx = await deps.makeContext(request);
      const limit = await deps.rateLimit(request, ctx, op.method !== 'GET');
      const base = { 'x-request-id': ctx.requestId, ...limit.headers };
      if (limit.refused) {
        for (const [k, v] of Object.entries(base)) limit.refused.headers.set(k, v);
        return limit.refused;
      }
      try {
        authorize(op, ctx);
        let plan: ReadPlan | undefined = memo?.get(request.url);
        let input = plan?.input;
        if (!input) {
          const body = op.method === 'GET' ? undefined : await readJson(request, deps.maxBodyBytes);
          input = validateInput(op, { path: params, query: queryObject(request.url), body }, { convert: true });
          if (memo) plan = memo.remember(request.url, input, readKey(op, input));
        }
        const out = await execute(op, input, ctx, plan?.key);
        if (cacheable && plan) {
          const p = plan;
          const constant = () => finishedHeaders(pathnameOf(request.url), linked(request.url, p, out, { 'content-type': JSON_TYPE }), deps.always);
          return answerKept(request, out, (p.kept ??= {}), constant, base, deps.httpMaxAge);
        }
        const status = out.status ?? op.status ?? 200;
        const headers: Record<string, string> = { ...base, ...idempotencyHeaders(out), 'content-type': JSON_TYPE, etag: out.etag };
        if (status === 201 && op.location) headers.location = `${deps.siteUrl}${prefix}${op.location(JSON.parse(out.body), input as never)}`;
        linked(request.url, plan, out, headers);
        if (cacheable) return answerRead(request, out, headers, deps.httpMaxAge);
        headers['cache-control'] = 'no-store';
        return new Response(out.body, { status, headers });
      } catch (err) {
        const gone = abandonedAnswer(err, base);
        if (gone) return gone;
        if (!(err instanceof DomainError)) deps.logError(err, { requestId: ctx.requestId, operation: op.name });
        const p = { ...problemFromError(deps.siteUrl, err), instance: ctx.requestId };
        return problemResponse(request, p, {
          ...base,
          ...errorHeaders(err),
          ...idempotencyHeaders(err),
          ...authChallenge(deps.config, p.status, op, ctx, resourcesOf(deps.config).rest),
        });
      }
    };
    app.route(op.method, prefix + toElysiaPath(op.path), handler, { parse: 'none' });
  }
  return app;
}
