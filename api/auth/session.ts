import type { Config } from '../../core/config.ts';
import type { Sql } from '../../sql/db.ts';
import { createSession, endSession, findSession, type SessionUser } from '../../core/auth/sessions.ts';
import { clearCookie, cookieSettings, readCookies, setCookie } from './cookies.ts';

/** The signed-in person of a site-page request, or null. Sessions are for pages only, never the API. */
export async function currentUser(sql: Sql, config: Config, request: Request): Promise<SessionUser | null> {
  const id = readCookies(request)[cookieSettings(config).session];
  return id ? findSession(sql, id) : null;
}

/** Starts a session and returns the Set-Cookie header value. */
export async function signIn(sql: Sql, config: Config, userId: string): Promise<string> {
  const { id } = await createSession(sql, userId, config.auth.sessionTtlHours);
  const c = cookieSettings(config);
  return setCookie(c.session, id, { secure: c.secure, maxAgeSeconds: config.auth.sessionTtlHours * 3600 });
}

/** Ends the request's session (if any) and returns the Set-Cookie header that clears it. */
export async function signOut(sql: Sql, config: Config, request: Request): Promise<string> {
  const c = cookieSettings(config);
  const id = readCookies(request)[c.session];
  if (id) await endSession(sql, id);
  return clearCookie(c.session, c.secure);
}
