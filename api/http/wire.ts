import { requestIdOf } from './request-id.ts';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Elysia } from 'elysia';
import { LRUCache } from 'lru-cache';

/**
 * The wire as every client meets it, applied to each response on its way out: CORS for the public
 * API and /mcp, the request id on every error, and gzip or brotli for text bodies.
 */

/** Where browser apps on other origins may call: the API and MCP, never pages or site forms. */
export const isCorsPath = (pathname: string) => pathname.startsWith('/api/') || pathname === '/mcp';

const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
/**
 * The headers named are the ones this API reads; `*` admits any other a client adds (tracing's
 * traceparent, a client's own), which browsers allow for calls without credentials, as these are.
 * The wildcard never covers Authorization, so it stays named.
 */
const ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, X-Request-Id, If-None-Match, *';
const EXPOSE_HEADERS = 'RateLimit, RateLimit-Policy, Retry-After, ETag, Location, Link, Idempotent-Replayed, Mcp-Session-Id, X-Request-Id, WWW-Authenticate';
const PREFLIGHT_MAX_AGE = '86400';

/**
 * Credentials here are bearer tokens the caller sends explicitly, never cookies, so any origin may
 * call and Access-Control-Allow-Credentials is never sent (a page cannot ride on a visitor's session).
 */
export const CORS_HEADERS: Record<string, string> = { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSE_HEADERS };

/** The answer to a CORS preflight on an API or MCP path; undefined for anything else. */
export function preflight(request: Request): Response | undefined {
  if (request.method !== 'OPTIONS') return undefined;
  const { pathname } = new URL(request.url);
  if (!isCorsPath(pathname)) return undefined;
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': ALLOW_METHODS,
      'access-control-allow-headers': ALLOW_HEADERS,
      'access-control-max-age': PREFLIGHT_MAX_AGE,
      'cache-control': 'no-store',
    },
  });
}

/** Bodies smaller than this go as they are: the encoding saves less than it costs. */
export const MIN_COMPRESS_BYTES = 1024;
const COMPRESSIBLE = /^(application\/([a-z.+-]*\+)?json|application\/(javascript|xml)|text\/(?!event-stream)|image\/svg\+xml)/i;

export type Encoding = 'br' | 'gzip';

/** What a client's Accept-Encoding allows: its best encoding, and the cheapest for a body sent once. */
interface Negotiated {
  best: Encoding | null;
  once: Encoding | null;
}

/**
 * Answers by header value: clients send a handful of distinct Accept-Encoding values, and parsing
 * one cost about 1.2 µs, a few percent of a compressed cached read. Cleared when it fills, so a
 * client sending a new value per request costs a parse, never memory.
 */
const negotiated = new Map<string, Negotiated>();
const NEGOTIATED_MAX = 64;
const NONE: Negotiated = { best: null, once: null };

function negotiate(header: string | null): Negotiated {
  if (!header) return NONE;
  let n = negotiated.get(header);
  if (n === undefined) {
    if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
    n = parseAcceptEncoding(header);
    negotiated.set(header, n);
  }
  return n;
}

/** The encoding to answer with (RFC 9110 12.5.3): brotli, then gzip, never one with q=0. */
export const negotiateEncoding = (header: string | null): Encoding | null => negotiate(header).best;

/**
 * The encoding of a body sent at the fast level (no ETag, or before KEPT_FROM_SENDING): gzip wherever
 * the client takes it, else its best. A client naming both without weights leaves the choice to the
 * server (RFC 9110 12.5.3), and for such a body gzip is the better trade: a third of brotli's time at
 * their fast levels (7 against 21 µs for a 9.5 KB listing) for about a quarter more bytes (760
 * against 586). Compressing long-tail reads at brotli 1 was a sixth of the edge's time on uncached
 * get_listing.
 */
export const onceEncoding = (header: string | null): Encoding | null => negotiate(header).once;

function parseAcceptEncoding(header: string): Negotiated {
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name.trim(), qp ? Number(qp.slice(2)) || 0 : 1);
  }
  const weight = (e: string) => q.get(e) ?? q.get('*') ?? 0;
  const br = weight('br') > 0;
  const gzip = weight('gzip') > 0;
  const best = br ? 'br' : gzip ? 'gzip' : null;
  return { best, once: gzip ? 'gzip' : best };
}

/** An ETag of one encoding of a body: the identity ETag with the encoding as a suffix inside the quotes. */
export const encodedEtag = (etag: string, enc: Encoding) => etag.replace(/"$/, `-${enc}"`);
/** The identity ETag an encoded ETag was made from (If-None-Match compares against that). */
export const identityEtag = (etag: string) => etag.replace(/-(br|gzip)"$/, '"');

/**
 * Two levels per encoding. The fast one (gzip 1 where the client takes gzip, else brotli 1: see
 * onceEncoding) is for a body compressed for one response: an answer without an ETag (an MCP tool
 * result, a personal read), and an answer's sendings before KEPT_FROM_SENDING, since most reads of
 * a directory are of its long tail and are not asked again while remembered.
 * The kept one (brotli 4: most of brotli's gain on JSON and HTML at a fraction of the default 11's
 * time) is made once, at the ETag's KEPT_FROM_SENDING-th sending, and answers every later one.
 * Brotli 4 costs a fixed 150-200 µs on a 2 KB listing (265 µs against 64 µs at 1, for 827 against
 * 916 bytes), which was a fifth of the edge's time on uncached long-tail reads.
 */
export const COMPRESSION_LEVELS: Record<Encoding, { kept: number; once: number }> = { br: { kept: 4, once: 1 }, gzip: { kept: 6, once: 1 } };

/**
 * gzip through the runtime's own codec where it has one: Bun's is about twice as fast as its
 * node:zlib (7 against 15 µs at level 1 on a 9.5 KB listing), with the same format. Deno: node:zlib.
 */
const gzip: (body: Uint8Array, level: number) => Uint8Array =
  typeof Bun !== 'undefined'
    ? (body, level) => Bun.gzipSync(body as Uint8Array<ArrayBuffer>, { level: level as 1 })
    : (body, level) => gzipSync(body, { level });

export function compress(body: Uint8Array, enc: Encoding, level: number): Uint8Array {
  if (enc === 'gzip') return gzip(body, level);
  return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: level, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength } });
}

/**
 * Encoded bodies by their ETag: a read sent again is compressed at the kept level once and answered
 * from it after. Bounded by bytes (compressed answers are a fifth of the response cache's, so this
 * holds about one encoding of each), least recently used first out; one encoding larger than 512 KB
 * is not kept.
 */
export const ENCODED_BUDGET_BYTES = 16 * 1024 * 1024;
const MAX_REMEMBERED_BYTES = 512 * 1024;
/** An encoding of one ETag's body at the kept level, and its own ETag. */
interface Remembered {
  bytes: Uint8Array;
  etag: string;
}
const encodedByEtag = new LRUCache<string, Remembered>({
  maxSize: ENCODED_BUDGET_BYTES,
  sizeCalculation: (r, k) => r.bytes.byteLength + 2 * k.length + 100,
});
/** What the remembered encodings hold now, bytes. */
export const encodedBytes = () => encodedByEtag.calculatedSize;
/**
 * How many times each ETag was sent at the fast level: only the count (its bytes are not kept), for
 * the latest 20,000 (about 2 MB).
 */
const SENT_MAX = 20_000;
const sentFast = new LRUCache<string, number>({ max: SENT_MAX });
/**
 * The sending from which an ETag's body is compressed at the kept level. The third, not the second:
 * the kept level pays off over the sendings after it, and on a long tail a body asked twice is
 * seldom asked a third time while remembered. On uniform reads of 100k listings, kept encodings
 * made at the second sending were an eighth of the edge's time; a popular body reaches the third
 * sending at once and costs one more fast compression (about 10 us).
 */
export const KEPT_FROM_SENDING = 3;

/**
 * A body encoded for this sending, and its encoding. Without an ETag, or in its ETag's first
 * sendings (most long-tail reads are not asked again while remembered), the fast level in the
 * cheaper encoding the client takes; from KEPT_FROM_SENDING on, the client's best at the kept level,
 * remembered.
 */
function encode(body: Uint8Array, n: Negotiated, etag: string | null): { bytes: Uint8Array; enc: Encoding } {
  const best = n.best!;
  const sent = etag === null ? 0 : (sentFast.get(etag) ?? 0);
  if (etag === null || sent < KEPT_FROM_SENDING - 1) {
    if (etag !== null) sentFast.set(etag, sent + 1);
    const enc = n.once ?? best;
    return { bytes: compress(body, enc, COMPRESSION_LEVELS[enc].once), enc };
  }
  const bytes = compress(body, best, COMPRESSION_LEVELS[best].kept);
  if (bytes.byteLength <= MAX_REMEMBERED_BYTES) encodedByEtag.set(`${best}:${etag}`, { bytes, etag: encodedEtag(etag, best) });
  return { bytes, enc: best };
}

function addVary(headers: Pick<Headers, 'get' | 'set'>, value: string) {
  const vary = headers.get('vary');
  if (!vary) headers.set('vary', value);
  else if (
    !vary
      .toLowerCase()
      .split(/\s*,\s*/)
      .includes(value.toLowerCase())
  )
    headers.set('vary', `${vary}, ${value}`);
}

/** The path of a request URL without building a URL object (this runs on every response). */
export function pathnameOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 63 /* ? */ || c === 35 /* # */) {
      end = i;
      break;
    }
  }
  return url.slice(start, end);
}

/**
 * Edits a response's headers in place, and copies them only where the runtime guards them (a
 * fetched Response on Deno): rebuilding a Response to add a header costs more than the rest of a
 * cached read, and reading `.body` would turn a buffered body into a stream.
 */
class HeaderEdit {
  headers: Headers;
  copied = false;
  constructor(response: Response) {
    this.headers = response.headers;
  }
  get(name: string) {
    return this.headers.get(name);
  }
  has(name: string) {
    return this.headers.has(name);
  }
  set(name: string, value: string) {
    this.write((h) => h.set(name, value));
  }
  delete(name: string) {
    this.write((h) => h.delete(name));
  }
  private write(change: (h: Headers) => void) {
    try {
      change(this.headers);
    } catch {
      this.headers = new Headers(this.headers);
      this.copied = true;
      change(this.headers);
    }
  }
}

/**
 * Responses whose headers already hold all the wire would add when the body goes as it is:
 * the read pipeline builds the constant headers of a cached answer once (finishedHeaders) and
 * answers each request from them. Finishing such a response header by header cost about as much
 * as the rest of a cached read's answer (1.5 of the 3 µs of building and finishing one, in process).
 */
const finished = new WeakSet<Response>();

/** `own` with what finishResponse would add to a response of this path and type sent as it is, as one object to build Headers from. */
export function finishedHeaders(pathname: string, own: Record<string, string>, always: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { ...always, ...own };
  if (isCorsPath(pathname)) Object.assign(out, CORS_HEADERS);
  if (COMPRESSIBLE.test(out['content-type'] ?? '')) addVary({ get: (k) => out[k] ?? null, set: (k, v) => void (out[k] = v) }, 'Accept-Encoding');
  return out;
}

/**
 * Marks a response built from finishedHeaders for a GET: finishResponse passes it on untouched
 * unless the client takes an encoding (then it is finished as any other, compressing its body).
 */
export function markFinished(response: Response): Response {
  finished.add(response);
  return response;
}

/**
 * Every response on its way out. It gets the `always` headers it lacks (the security headers: a
 * route's own CSP stays); errors carry the request id (header and the problem's `instance`);
 * API and MCP responses carry CORS headers; text bodies of 1 KB and more are compressed when the
 * client accepts it, with `Vary: Accept-Encoding` and an ETag per encoding. The body is only read
 * when it must change (a compression that is not cached yet).
 */
export async function finishResponse(request: Request, response: Response, always: Record<string, string> = {}): Promise<Response> {
  if (finished.has(response) && negotiate(request.headers.get('accept-encoding')).best === null) return response;
  const pathname = pathnameOf(request.url);
  const headers = new HeaderEdit(response);
  for (const k in always) if (!headers.has(k)) headers.set(k, always[k]);
  let body: BodyInit | null | undefined; // undefined: the response's own body, untouched

  if (isCorsPath(pathname)) for (const k in CORS_HEADERS) headers.set(k, CORS_HEADERS[k]);

  const type = headers.get('content-type') ?? '';
  // Every error carries its request id; a problem's body already names it as its instance
  // (problemResponse), so no body is read here.
  if (response.status >= 400 && !headers.has('x-request-id')) headers.set('x-request-id', requestIdOf(request));

  if (COMPRESSIBLE.test(type) && !headers.has('content-encoding') && response.status !== 304 && response.status !== 204 && request.method !== 'HEAD') {
    addVary(headers, 'Accept-Encoding');
    const n = negotiate(request.headers.get('accept-encoding'));
    const enc = n.best;
    const etag = headers.get('etag');
    // A remembered encoding (the kept level) answers as it is; anything else is encoded below.
    const remembered = enc && etag ? encodedByEtag.get(`${enc}:${etag}`) : undefined;
    if (enc && remembered) {
      body = remembered.bytes as Uint8Array<ArrayBuffer>;
      headers.set('content-encoding', enc);
      headers.delete('content-length');
      headers.set('etag', remembered.etag);
    } else if (enc && (body !== undefined ? body !== null : response.body !== null)) {
      const bytes = new Uint8Array(await (body !== undefined ? new Response(body) : response).arrayBuffer());
      body = bytes;
      if (bytes.byteLength >= MIN_COMPRESS_BYTES) {
        const encoded = encode(bytes, n, etag);
        body = encoded.bytes as Uint8Array<ArrayBuffer>;
        headers.set('content-encoding', encoded.enc);
        headers.delete('content-length');
        if (etag) headers.set('etag', encodedEtag(etag, encoded.enc));
      }
    }
  } else if (response.status === 304) {
    // A 304 names the representation the client holds: the encoded one when it asked with that ETag.
    const etag = headers.get('etag');
    const held = request.headers.get('if-none-match');
    if (etag && held) {
      for (const enc of ['br', 'gzip'] as const) {
        if (held.includes(encodedEtag(etag, enc).replace(/^W\//, ''))) {
          headers.set('etag', encodedEtag(etag, enc));
          break;
        }
      }
    }
    addVary(headers, 'Accept-Encoding');
  }

  if (body === undefined) {
    if (!headers.copied) return response;
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: headers.headers });
  }
  return new Response(body, { status: response.status, statusText: response.statusText, headers: headers.headers });
}

/**
 * The wire as a global Elysia plugin: preflights answered before routing, every mapped response
 * finished. Adding `always` here rather than through `set.headers` spares Elysia a header merge
 * on every response.
 */
export function wirePlugin(always: Record<string, string> = {}) {
  return new Elysia({ name: 'wire' })
    .onRequest(({ request }) => preflight(request))
    .mapResponse({ as: 'global' }, async (ctx) => {
      const value = (ctx as unknown as { responseValue?: unknown; response?: unknown }).responseValue ?? (ctx as { response?: unknown }).response;
      if (value instanceof Response) return finishResponse(ctx.request, value, always);
      // A plain value is made into a Response by Elysia after this hook, with set.headers.
      for (const k in always) ctx.set.headers[k] ??= always[k];
    });
}
