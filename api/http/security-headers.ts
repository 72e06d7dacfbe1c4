import type { Config } from '../../core/config.ts';

/**
 * Headers every response carries, added by the wire (api/http/wire.ts) on the way out without
 * replacing a header the route set itself: a page with its own Content-Security-Policy (the docs page with Scalar,
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
