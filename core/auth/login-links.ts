import type { Sql } from '../../sql/db.ts';
import { hashSecret, newSecret, SECRET_PREFIX } from './secrets.ts';

/** A link token looks like ldl_ plus 43 base64url characters; anything else is not looked up. */
export const isLoginLinkToken = (token: string) => new RegExp(`^${SECRET_PREFIX.loginLink}[A-Za-z0-9_-]{43}$`).test(token);

/** One link per address per this many seconds: a repeated request sends nothing new. */
export const LOGIN_LINK_INTERVAL_SECONDS = 30;

/**
 * Makes a single-use sign-in link for an address, unless one was made for it in the last
 * LOGIN_LINK_INTERVAL_SECONDS (then null). Run it inside the transaction that enqueues the mail.
 * The per-address advisory lock makes two simultaneous requests produce one link, not two.
 */
export async function createLoginLink(
  sql: Sql,
  opts: { email: string; returnTo: string; ttlMinutes: number },
): Promise<{ token: string; expiresAt: Date } | null> {
  await sql`select pg_advisory_xact_lock(hashtext('login_link:' || lower(${opts.email})))`;
  // Links live at least a minute, so every link younger than the interval is still unexpired: the
  // expires_at index finds them.
  const [recent] = await sql`
    select 1 from login_links
    where expires_at > now() and lower(email) = lower(${opts.email})
      and created_at > now() - make_interval(secs => ${LOGIN_LINK_INTERVAL_SECONDS})
    limit 1`;
  if (recent) return null;
  // Links are worthless a day after they expire; dropping them here keeps the table small.
  await sql`delete from login_links where expires_at < now() - interval '1 day'`;
  const token = newSecret(SECRET_PREFIX.loginLink);
  const [row] = await sql<{ expires_at: Date }[]>`
    insert into login_links (token_hash, email, return_to, expires_at)
    values (${hashSecret(token)}, ${opts.email}, ${opts.returnTo}, now() + make_interval(mins => ${opts.ttlMinutes}))
    returning expires_at`;
  return { token, expiresAt: row.expires_at };
}

export type LoginLinkState = { state: 'valid'; email: string; returnTo: string } | { state: 'used' | 'expired'; returnTo: string } | { state: 'unknown' };

/** What a link is, without using it (the GET of the link must not sign in: mail scanners open links). */
export async function peekLoginLink(sql: Sql, token: string): Promise<LoginLinkState> {
  if (!isLoginLinkToken(token)) return { state: 'unknown' };
  const [row] = await sql<{ email: string; return_to: string; used: boolean; expired: boolean }[]>`
    select email, return_to, used_at is not null as used, expires_at <= now() as expired
    from login_links where token_hash = ${hashSecret(token)}`;
  if (!row) return { state: 'unknown' };
  if (row.used) return { state: 'used', returnTo: row.return_to };
  if (row.expired) return { state: 'expired', returnTo: row.return_to };
  return { state: 'valid', email: row.email, returnTo: row.return_to };
}

/**
 * Uses a link: one statement marks it used only if it is unused and unexpired, so of two
 * simultaneous uses exactly one wins. Returns the address and where to go, or why not.
 */
export async function consumeLoginLink(sql: Sql, token: string): Promise<LoginLinkState> {
  if (!isLoginLinkToken(token)) return { state: 'unknown' };
  const [row] = await sql<{ email: string; return_to: string }[]>`
    update login_links set used_at = now()
    where token_hash = ${hashSecret(token)} and used_at is null and expires_at > now()
    returning email, return_to`;
  if (row) return { state: 'valid', email: row.email, returnTo: row.return_to };
  return peekLoginLink(sql, token);
}
