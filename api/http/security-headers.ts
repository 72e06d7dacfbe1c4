import { Elysia } from 'elysia';
import type { Config } from '../../core/config.ts';

/**
 * Headers every response carries. Set on the request's `set.headers`, which Elysia merges into
 * whatever a route answers (a value or a Response, errors included) without replacing a header
 * the route set itself: a page with its own Content-Security-Policy (the docs page with Scalar,
 * the consent page, checkout) keeps it, and anything without one gets the strict default, which
 * runs no script and cannot be framed.
 */
export const DEFAULT_CSP =
  "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
/** One year; only sent when SITE_URL is https (a browser ignores it over http anyway, but a dev setup on http must not be pinned). */
export const HSTS = 'max-age=31536000';

export function securityHeaders(config: Pick<Config, 'siteUrl'>): Record<string, string> {
  const headers: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'content-security-policy': DEFAULT_CSP,
  };
  if (new URL(config.siteUrl).protocol === 'https:') headers['strict-transport-security'] = HSTS;
  return headers;
}

export function securityHeadersPlugin(config: Pick<Config, 'siteUrl'>) {
  const headers = securityHeaders(config);
  return new Elysia({ name: 'security-headers' })
    .onRequest(({ set }) => {
      for (const [k, v] of Object.entries(headers)) set.headers[k] = v;
    })
    .as('global');
}
