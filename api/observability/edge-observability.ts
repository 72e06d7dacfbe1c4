import { timingSafeEqual } from 'node:crypto';
import { Elysia } from 'elysia';
import { DomainError } from '../../core/errors/index.ts';
import type { AppDeps } from '../deps.ts';
import type { ResponseCache } from '../http/cache.ts';
import { REPLAYED_HEADER } from '../http/idempotency.ts';
import { API_PREFIX } from '../http/prefix.ts';
import { pathnameOf } from '../http/wire.ts';
import { problemFromError } from '../http/problem.ts';
import { operations } from '../registry/index.ts';
import { EdgeMetrics, type Surface } from './edge-metrics.ts';

/**
 * Per-request observability for the whole edge: one Prometheus sample and one pino line per
 * request (request id, surface, operation, status, duration), plus the scrape endpoint /metrics.
 *
 * The operation is a bounded label: for REST the registry's operation name of the matched route,
 * for MCP the tool called (or the JSON-RPC method), for pages the route template. Raw paths are
 * never logged or used as labels: they carry ids, tokens in query strings, and unbounded values.
 */

/** What a request's line needs, read when it arrives: Deno closes a request's headers once its response is sent. */
interface Arrival {
  t0: number;
  method: string;
  path: string;
  requestId: string | null;
}
const started = new WeakMap<Request, Arrival>();
const failures = new WeakMap<Request, unknown>();
const mcpCalls = new WeakMap<Request, string>();
const mcpArguments = new WeakMap<Request, Record<string, unknown>>();

/** The arguments of the one tool a single MCP tools/call request called (for the makers' read statistics). */
export const mcpCallArguments = (request: Request): { tool: string; args: Record<string, unknown> } | null => {
  const args = mcpArguments.get(request);
  const tool = mcpCalls.get(request);
  return args && tool ? { tool, args } : null;
};

/** REST route template (as Elysia names it) → the registry's operation name. */
const restOperation = new Map(operations.map((op) => [`${op.method} ${API_PREFIX}${op.path.replace(/\{([a-z_]+)\}/g, ':$1')}`, op.name]));

const SERVICE_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Called by the MCP mount with the JSON-RPC body it has already parsed: names the tool called
 * (or the method, or "batch"), so MCP requests are labelled without reading the body again.
 */
export function noteMcpCall(request: Request, body: unknown): void {
  if (body === undefined || body === null || typeof body !== 'object') return;
  const messages = (Array.isArray(body) ? body : [body]) as { method?: unknown; params?: { name?: unknown } }[];
  if (messages.length !== 1) return void mcpCalls.set(request, 'batch');
  const m = messages[0];
  const name = m?.method === 'tools/call' ? m.params?.name : m?.method;
  if (typeof name === 'string') mcpCalls.set(request, name.slice(0, 64));
  const args = (m?.params as { arguments?: unknown } | undefined)?.arguments;
  if (m?.method === 'tools/call' && args && typeof args === 'object') mcpArguments.set(request, args as Record<string, unknown>);
}

const KNOWN_TOOLS = new Set([...operations.map((o) => o.name), 'batch']);
/** Only names the service knows become labels (an unknown tool or method is "other"), so labels stay bounded. */
const mcpLabel = (name: string | undefined) => (!name ? 'other' : KNOWN_TOOLS.has(name) || /^[a-z]+(\/[a-z_]+)?$/i.test(name) ? name : 'other');

export function classify(method: string, route: string | undefined, request: Request, path: string): { surface: Surface; operation: string } {
  if (route === undefined) {
    return { surface: path.startsWith(`${API_PREFIX}/`) || path === API_PREFIX ? 'rest' : path === '/mcp' ? 'mcp' : 'pages', operation: 'unmatched' };
  }
  if (route === '/mcp') return { surface: 'mcp', operation: mcpLabel(mcpCalls.get(request)) };
  if (SERVICE_ROUTES.has(route)) return { surface: 'other', operation: route.slice(1) };
  const rest = restOperation.get(`${method} ${route}`);
  if (rest) return { surface: 'rest', operation: rest };
  return { surface: route.startsWith(API_PREFIX) ? 'rest' : 'pages', operation: route };
}

/** A cache that counts its lookups (hits and misses) in the edge metrics; everything else passes through. */
export function meteredCache(cache: ResponseCache, metrics: EdgeMetrics): ResponseCache {
  return {
    get generation() {
      return cache.generation;
    },
    get redis() {
      return cache.redis;
    },
    async get(key) {
      const hit = await cache.get(key);
      metrics.cacheLookup(hit !== null);
      return hit;
    },
    set: (key, value) => cache.set(key, value),
    advance: (gen) => cache.advance(gen),
    close: () => cache.close(),
  };
}

/** The deps with edge metrics attached (a fresh registry unless given) and the cache metered. */
export function withEdgeMetrics<D extends AppDeps>(deps: D): D & { metrics: EdgeMetrics } {
  if (deps.metrics && (deps.cache as { metered?: boolean }).metered) return deps as D & { metrics: EdgeMetrics };
  const metrics = deps.metrics ?? new EdgeMetrics();
  const cache = Object.assign(meteredCache(deps.cache, metrics), { metered: true });
  return { ...deps, metrics, cache };
}

function statusOf(error: unknown, siteUrl: string): number {
  if (error === 'NOT_FOUND') return 404;
  if (error === 'PARSE') return 400;
  if (error instanceof DomainError) return problemFromError(siteUrl, error).status;
  return 500;
}

const sameToken = (given: string, want: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * Global hooks (they see every route of every area) and GET /metrics. With METRICS_TOKEN set,
 * /metrics wants `Authorization: Bearer <token>`; without it, /metrics is open, and the compose
 * balancer does not pass it through (scrape the edges directly, inside the network).
 */
export function observabilityPlugin(deps: Pick<AppDeps, 'config' | 'log'> & { metrics: EdgeMetrics }) {
  const { metrics, log, config } = deps;
  return new Elysia({ name: 'observability' })
    .onRequest(({ request }) => {
      started.set(request, {
        t0: performance.now(),
        method: request.method,
        path: pathnameOf(request.url),
        requestId: request.headers.get('x-request-id')?.slice(0, 100) || null,
      });
    })
    .onError({ as: 'global' }, ({ request, error, code }) => {
      // Remembered only: the root handler still answers. Elysia's own codes stand for themselves.
      failures.set(request, code === 'NOT_FOUND' || code === 'PARSE' ? code : error);
    })
    .onAfterResponse({ as: 'global' }, ({ request, route, set, responseValue }) => {
      // Bookkeeping must never fail a process: a request whose arrival was not seen is skipped.
      const arrival = started.get(request);
      if (!arrival) return;
      try {
        const seconds = (performance.now() - arrival.t0) / 1000;
        const failure = failures.get(request);
        const status =
          responseValue instanceof Response
            ? responseValue.status
            : failure !== undefined
              ? statusOf(failure, config.siteUrl)
              : typeof set.status === 'number'
                ? set.status
                : 200;
        const { surface, operation } = classify(arrival.method, route || undefined, request, arrival.path);
        metrics.request(surface, operation, status, seconds);
        const headers = responseValue instanceof Response ? responseValue.headers : null;
        if (headers?.get(REPLAYED_HEADER) === 'true') metrics.replay(operation);
        // The line (and a request id for an answer that carries none) only where it is written.
        if (!log.isLevelEnabled('info')) return;
        const requestId = headers?.get('x-request-id') ?? arrival.requestId ?? crypto.randomUUID();
        log.info({ requestId, method: arrival.method, surface, operation, status, ms: Math.round(seconds * 10_000) / 10 }, 'request');
      } catch (err) {
        log.warn({ err: err instanceof Error ? err.message : String(err) }, 'request metrics skipped');
      }
    })
    .get('/metrics', async ({ request }) => {
      if (config.metricsToken) {
        const auth = request.headers.get('authorization') ?? '';
        const given = auth.toLowerCase().startsWith('bearer ') ? auth.slice(7).trim() : '';
        if (!sameToken(given, config.metricsToken)) {
          return new Response('metrics need the METRICS_TOKEN as a bearer token\n', {
            status: 401,
            headers: { 'www-authenticate': 'Bearer realm="metrics"', 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
          });
        }
      }
      return new Response(await metrics.registry.metrics(), { headers: { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' } });
    });
}
