import { randomBytes } from 'node:crypto';
import type { Config } from '../../core/config.ts';
import { safeEqual } from '../../core/auth/secrets.ts';
import { cookieSettings, readCookies, setCookie } from './cookies.ts';

/**
 * CSRF protection for every site form: a double-submit token (an HttpOnly cookie whose value each
 * form repeats in a hidden `csrf` field) plus an Origin check. Cookies are SameSite=Lax and, over
 * https, __Host- prefixed, so another site can neither send nor plant the cookie.
 */
export function csrfToken(config: Config, request: Request): { token: string; setCookie: string | null } {
  const c = cookieSettings(config);
  const existing = readCookies(request)[c.csrf];
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return { token: existing, setCookie: null };
  const token = randomBytes(32).toString('base64url');
  return { token, setCookie: setCookie(c.csrf, token, { secure: c.secure, maxAgeSeconds: 86400 * 30 }) };
}

/** True when a POSTed form carries the request's CSRF token and comes from this site. */
export function csrfValid(config: Config, request: Request, form: FormData): boolean {
  const origin = new URL(config.siteUrl).origin;
  const sentOrigin = request.headers.get('origin');
  if (sentOrigin && sentOrigin !== origin) return false;
  if (!sentOrigin) {
    const referer = request.headers.get('referer');
    if (referer && !referer.startsWith(`${origin}/`)) return false;
  }
  const cookie = readCookies(request)[cookieSettings(config).csrf];
  const field = form.get('csrf');
  return typeof cookie === 'string' && typeof field === 'string' && cookie.length > 0 && safeEqual(cookie, field);
}
