// Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document, MCP authorization
// spec "Client ID Metadata Documents"): a client_id that is an https URL names a JSON document
// describing the client. We fetch it through the SSRF-safe fetcher (public unicast addresses only,
// no redirects, 5 KB, 5 s), check it and cache it in oauth_clients.
import type { Logger } from 'pino';
import type { Config } from '../../core/config.ts';
import type { Sql } from '../../sql/db.ts';
import { findClient, upsertMetadataDocumentClient, type OAuthClient } from '../../core/auth/oauth-clients.ts';
import { createSafeFetcher, UnsafeUrlError, type SafeFetch } from '../../core/net/ssrf-fetch.ts';
import { validateClientMetadata } from './client-metadata.ts';
import { PRODUCT_TOKEN } from '../../sql/product.ts';

/** The draft asks authorization servers to cap the document's size; 5 KB is its suggested bound. */
export const MAX_DOCUMENT_BYTES = 5 * 1024;
export const FETCH_TIMEOUT_MS = 5_000;
/** Cache lifetime: the document's Cache-Control max-age within these bounds, DEFAULT when it sends none. */
export const CACHE_MIN_SECONDS = 60;
export const CACHE_MAX_SECONDS = 24 * 3600;
export const CACHE_DEFAULT_SECONDS = 3600;

export const looksLikeMetadataDocumentUrl = (clientId: string) => /^https?:\/\//i.test(clientId);

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a client_id URL cannot name a metadata document, or null. It must be https, have a path,
 * and be in canonical form (so no dot segments, default ports or case differences sneak in),
 * without fragment, query or user info. Plain http is accepted only for loopback hosts when
 * ALLOW_LOOPBACK_FETCH is set (tests).
 */
export function clientIdUrlProblem(clientId: string, allowLoopback: boolean): string | null {
  if (clientId.length > 2048) return 'is longer than 2048 characters';
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'is not a URL';
  }
  const loopbackHttp = allowLoopback && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) return 'must use https';
  if (url.username || url.password) return 'must not contain a user name or password';
  if (url.hash || clientId.includes('#')) return 'must not contain a fragment';
  if (url.search || clientId.includes('?')) return 'must not contain a query';
  if (url.pathname === '/' || url.pathname === '') return 'must have a path, such as https://example.com/client.json';
  if (url.href !== clientId) return `must be in canonical form (${url.href})`;
  return null;
}

/** Seconds to keep a fetched document, from its Cache-Control header. */
export function cacheSeconds(cacheControl: string | null): number {
  const cc = (cacheControl ?? '').toLowerCase();
  if (/(^|[\s,])(no-store|no-cache)([\s,=]|$)/.test(cc)) return CACHE_MIN_SECONDS;
  const m = /(?:^|[\s,])max-age=(\d{1,10})/.exec(cc);
  if (!m) return CACHE_DEFAULT_SECONDS;
  return Math.min(CACHE_MAX_SECONDS, Math.max(CACHE_MIN_SECONDS, Number(m[1])));
}

export type ResolvedDocument = { client: OAuthClient } | { error: string };

const FETCH_REASONS: Record<string, string> = {
  scheme: 'its URL is not fetchable',
  address: 'it is not on a public address',
  unresolvable: 'its host name does not resolve',
  redirects: 'it answered with a redirect (not followed)',
  too_large: `it is larger than ${MAX_DOCUMENT_BYTES} bytes`,
  timeout: `it did not answer within ${FETCH_TIMEOUT_MS / 1000} seconds`,
  credentials: 'its URL contains a user name or password',
};

export function metadataDocumentResolver(deps: { sql: Sql; config: Config; log: Logger }, opts: { fetch?: SafeFetch } = {}) {
  const { sql, config, log } = deps;
  const safeFetch =
    opts.fetch ??
    createSafeFetcher({
      allowLoopback: config.allowLoopbackFetch,
      maxRedirects: 0,
      timeoutMs: FETCH_TIMEOUT_MS,
      maxBytes: MAX_DOCUMENT_BYTES,
      userAgent: `${PRODUCT_TOKEN}OAuth/1.0 (+${config.siteUrl})`,
    });

  /** The client behind a metadata document URL: the cached copy while fresh, otherwise fetched now. */
  return async function resolve(clientId: string): Promise<ResolvedDocument> {
    const problem = clientIdUrlProblem(clientId, config.allowLoopbackFetch);
    if (problem) return { error: `The client_id ${problem}.` };
    const cached = await findClient(sql, clientId);
    if (cached && cached.kind === 'metadata_document' && cached.expiresAt && cached.expiresAt.getTime() > Date.now()) return { client: cached };

    let response: Awaited<ReturnType<typeof safeFetch>>;
    try {
      response = await safeFetch(clientId, { accept: 'application/json' });
    } catch (err) {
      if (err instanceof UnsafeUrlError) return { error: `The client's metadata document could not be fetched: ${FETCH_REASONS[err.reason] ?? err.reason}.` };
      log.warn({ err, clientId }, 'client metadata document fetch failed');
      return { error: "The client's metadata document could not be fetched." };
    }
    if (response.status !== 200) return { error: `The client's metadata document answered with HTTP ${response.status}.` };
    let doc: unknown;
    try {
      doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(response.body));
    } catch {
      return { error: "The client's metadata document is not valid JSON." };
    }
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { error: "The client's metadata document is not a JSON object." };
    // Simple string comparison (RFC 3986 section 6.2.1), as the draft requires.
    if ((doc as Record<string, unknown>).client_id !== clientId)
      return { error: "The client's metadata document names a different client_id than its own URL." };
    const checked = validateClientMetadata(doc, 'document');
    if ('error' in checked) return { error: `The client's metadata document is not acceptable: ${checked.description}` };
    const client = await upsertMetadataDocumentClient(sql, clientId, checked.fields, cacheSeconds(response.headers.get('cache-control')));
    return { client };
  };
}
