import { createHash } from 'node:crypto';
import type { Sql } from '../../sql/db.ts';
import type { CachedBody, Paging, ResponseCache } from './cache.ts';
import { isAbandoned, RequestAbandoned, singleFlight } from './single-flight.ts';
import { markFinished } from './wire.ts';

/**
 * The public-read pipeline. A public read (an operation with GET and no scope, or the anonymous
 * render of a page) gives the same answer to everyone, so every surface serves it the same way,
 * here and nowhere else:
 *
 * - `readThrough`: the answer from the response cache, else computed once however many requests
 *   for it arrive meanwhile (single flight), on the reads' pool (bounded there by its statement
 *   timeout and pool wait, never cancelled), and cached when it is a 200 computed without a write
 *   landing meanwhile.
 *   REST and MCP tools/call reach it through execute(); pages call it for their anonymous render.
 * - `answerRead`: the HTTP answer of a public read: its ETag, a public Cache-Control, and a 304
 *   when If-None-Match names the ETag. REST and pages answer with it; MCP wraps the same body
 *   in its JSON-RPC result instead.
 * - `abandonedAnswer`: the request whose every client has gone, counted as nginx's 499.
 *
 * Rate limits are spent before a read starts, by the one gate of every surface (rate-gate.ts).
 */

/** What a public read answers: the cached body with its ETag (and paging), and its status when not 200. */
export interface ReadAnswer extends CachedBody {
  status?: number;
}

/** What a read computes: its body (JSON or HTML), where a list stands, and its status when not 200 (a page's 404). */
export interface Computed {
  body: string;
  paging?: Paging;
  status?: number;
}

/** The pools and cache a read runs with (an operation's context, or the pages' deps). */
export interface ReadPools {
  sql: Sql;
  readSql?: Sql;
  cache: ResponseCache;
}

/**
 * A body's ETag: 128 bits of two fast non-cryptographic hashes on Bun (about 1 µs for a 9.5 KB
 * listing, against 7.5 µs for SHA-1, which every cache miss paid), SHA-1 elsewhere (Deno). An ETag
 * only has to change when its body does; a crafted collision could at worst make one client keep an
 * older answer of the same URL until it expires, which no secret or write rides on.
 */
export const etagOf: (body: string) => string =
  typeof Bun !== 'undefined'
    ? (body) => `"${Bun.hash.xxHash3(body).toString(36)}.${Bun.hash.wyhash(body).toString(36)}"`
    : (body) => `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;

/** One set of shared computations per cache (per app: tests run several apps, on several databases, in one process). */
const flights = new WeakMap<ResponseCache, ReturnType<typeof singleFlight<ReadAnswer>>>();

/**
 * A public read through the cache and single flight. `compute` gets the pool to read on and the
 * signal that aborts once every waiter has gone (then answered as abandoned). `signalOf` gives the
 * request's signal, asked for only on a miss (Bun makes a request's signal when it is first read);
 * a waiter without one (a read nested in a page render) keeps the computation alive.
 */
export async function readThrough(
  pools: ReadPools,
  key: string,
  signalOf: () => AbortSignal | undefined,
  compute: (sql: Sql, signal: AbortSignal) => Promise<Computed>,
): Promise<ReadAnswer> {
  const { cache } = pools;
  const hit = await cache.get(key);
  if (hit) return hit;
  let once = flights.get(cache);
  if (!once) flights.set(cache, (once = singleFlight<ReadAnswer>()));
  // Keyed by generation too: a request arriving after a write never joins a computation begun before it.
  return once(
    `${cache.generation}:${key}`,
    async (gone) => {
      const gen = cache.generation;
      const { body, paging, status } = await compute(pools.readSql ?? pools.sql, gone);
      const cached: CachedBody = paging ? { body, etag: etagOf(body), paging } : { body, etag: etagOf(body) };
      // Don't store a result computed while a write landed: it may predate the write.
      if ((status ?? 200) === 200) {
        if (gen === cache.generation) await cache.set(key, cached);
        if (gone.aborted) throw new RequestAbandoned();
        return cached;
      }
      return { ...cached, status };
    },
    signalOf(),
  );
}

/** If-None-Match matching per RFC 9110 (weak comparison, lists and *). */
export function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  // An ETag of an encoded body (the wire suffixes -br or -gzip) names the same content.
  return header.split(',').some(
    (t) =>
      t
        .trim()
        .replace(/^W\//, '')
        .replace(/-(br|gzip)"$/, '"') === etag,
  );
}

/** Cache-Control of every public read: shared caches may keep it, and serve it stale while they revalidate. */
const cacheControls = new Map<number, string>();
export function publicCacheControl(maxAge: number): string {
  let v = cacheControls.get(maxAge);
  if (v === undefined) cacheControls.set(maxAge, (v = `public, max-age=${maxAge}, stale-while-revalidate=${maxAge * 2}`));
  return v;
}

/**
 * The HTTP answer of a public read: `headers` (the surface's own: content type, rate limits,
 * links, ...) with the ETag and a public Cache-Control (HTTP_CACHE_MAX_AGE's, or the surface's
 * own, as badge images on other sites have); 304 without a body when the client already holds
 * this ETag.
 */
export function answerRead(request: Request, answer: ReadAnswer, headers: Record<string, string>, maxAge: number | string): Response {
  const status = answer.status ?? 200;
  const all = readHeaders(answer, { ...headers }, maxAge);
  if (status === 200 && etagMatches(request.headers.get('if-none-match'), answer.etag)) return new Response(null, { status: 304, headers: all });
  return new Response(answer.body, { status, headers: all });
}

/** Adds a public read's ETag and Cache-Control to `headers` (its own object: it is changed). */
const readHeaders = (answer: ReadAnswer, headers: Record<string, string>, maxAge: number | string) => {
  headers.etag = answer.etag;
  headers['cache-control'] = typeof maxAge === 'number' ? publicCacheControl(maxAge) : maxAge;
  return headers;
};

/** Where one route keeps the constant headers of the answer it last sent (see answerKept), and that answer's ETag. */
export interface KeptHeaders {
  etag?: string;
  headers?: Headers;
}

/**
 * answerRead for a route that answers one URL again and again (a remembered read plan): the
 * headers that stay the same while the answer does (content type, ETag, Cache-Control, links, and
 * what the wire adds: finishedHeaders) are built once per answer and copied into each response,
 * which then gets only `perRequest` (request id, rate limits). Building a cached get_listing's
 * dozen headers from an object and finishing them one by one cost about 3 µs of CPU, copying them
 * about 0.7 µs (in process). An answer's first sending, a 304, a status other than 200, and
 * anything but GET go through answerRead.
 */
export function answerKept(
  request: Request,
  answer: ReadAnswer,
  kept: KeptHeaders,
  constant: () => Record<string, string>,
  perRequest: Record<string, string>,
  maxAge: number,
): Response {
  if (request.method !== 'GET' || (answer.status ?? 200) !== 200 || request.headers.has('if-none-match')) {
    return answerRead(request, answer, Object.assign(constant(), perRequest), maxAge);
  }
  if (kept.etag !== answer.etag) {
    // An answer's first sending goes the general way: most of a long tail is never sent twice.
    kept.etag = answer.etag;
    kept.headers = undefined;
    return answerRead(request, answer, Object.assign(constant(), perRequest), maxAge);
  }
  kept.headers ??= new Headers(readHeaders(answer, constant(), maxAge));
  const response = new Response(answer.body, { headers: kept.headers });
  for (const k in perRequest) response.headers.set(k, perRequest[k]);
  return markFinished(response);
}

/** A request nobody is left to read: nginx's 499 keeps it apart from failures in the metrics. Null for any other error. */
export function abandonedAnswer(err: unknown, headers: Record<string, string> = {}): Response | null {
  return isAbandoned(err) ? new Response(null, { status: 499, headers }) : null;
}
