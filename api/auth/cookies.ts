import { parse, serialize } from 'cookie';
import type { Config } from '../../core/config.ts';

/**
 * Cookie names and attributes. Over https the names carry the __Host- prefix (Secure, Path=/, no
 * Domain: a sibling subdomain cannot set or overwrite them); plain http (local development and
 * tests) cannot use the prefix or Secure, so the bare names are used there.
 */
export function cookieSettings(config: Config) {
  const secure = config.siteUrl.startsWith('https:');
  return {
    secure,
    session: secure ? '__Host-session' : 'session',
    csrf: secure ? '__Host-csrf' : 'csrf',
  };
}

export const readCookies = (request: Request): Record<string, string | undefined> => parse(request.headers.get('cookie') ?? '');

export function setCookie(name: string, value: string, opts: { secure: boolean; maxAgeSeconds: number }): string {
  return serialize(name, value, { httpOnly: true, sameSite: 'lax', path: '/', secure: opts.secure, maxAge: opts.maxAgeSeconds });
}

export const clearCookie = (name: string, secure: boolean) => setCookie(name, '', { secure, maxAgeSeconds: 0 });
