import type { Sql } from '../../sql/db.ts';
import { hashSecret, newSecret, SECRET_PREFIX } from './secrets.ts';
import type { Scope } from './scopes.ts';

export interface AccessTokenInfo {
  userId: string;
  email: string;
  grantId: string;
  clientId: string;
  scopes: Scope[];
  resource: string;
  expiresAt: Date;
}

/**
 * A live access token: not expired, not revoked, its grant not revoked. last_used_at is written at
 * most once a minute per token (the connections page shows it) so a busy agent's reads stay reads.
 */
export async function findAccessToken(sql: Sql, secret: string): Promise<AccessTokenInfo | null> {
  const [row] = await sql<{ user_id: string; email: string; grant_id: string; client_id: string; scopes: Scope[]; resource: string; expires_at: Date }[]>`
    with hit as (
      select t.token_hash, t.last_used_at, g.user_id, u.email, g.id as grant_id, g.client_id, t.scopes, t.resource, t.expires_at
      from oauth_tokens t join oauth_grants g on g.id = t.grant_id join users u on u.id = g.user_id
      where t.token_hash = ${hashSecret(secret)} and t.kind = 'access'
        and t.revoked_at is null and g.revoked_at is null and t.expires_at > now()),
    touch as (update oauth_tokens t set last_used_at = now() from hit
              where t.token_hash = hit.token_hash and (hit.last_used_at is null or hit.last_used_at < now() - interval '1 minute'))
    select user_id::text, email, grant_id::text, client_id, scopes, resource, expires_at from hit`;
  return row
    ? {
        userId: row.user_id,
        email: row.email,
        grantId: row.grant_id,
        clientId: row.client_id,
        scopes: row.scopes,
        resource: row.resource,
        expiresAt: row.expires_at,
      }
    : null;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresIn: number;
  scopes: Scope[];
}

/**
 * An access token bound to the grant's resource (its audience) and, when refreshScopes is given,
 * a refresh token. Both are returned once and stored as hashes.
 */
export async function issueTokens(
  sql: Sql,
  opts: { grantId: string; accessScopes: Scope[]; refreshScopes: Scope[] | null; resource: string; accessTtlSeconds: number; refreshTtlDays: number },
): Promise<IssuedTokens> {
  const accessToken = newSecret(SECRET_PREFIX.accessToken);
  await sql`
    insert into oauth_tokens (token_hash, kind, grant_id, scopes, resource, expires_at)
    values (${hashSecret(accessToken)}, 'access', ${opts.grantId}, ${opts.accessScopes}, ${opts.resource}, now() + make_interval(secs => ${opts.accessTtlSeconds}))`;
  let refreshToken: string | null = null;
  if (opts.refreshScopes) {
    refreshToken = newSecret(SECRET_PREFIX.refreshToken);
    await sql`
      insert into oauth_tokens (token_hash, kind, grant_id, scopes, resource, expires_at)
      values (${hashSecret(refreshToken)}, 'refresh', ${opts.grantId}, ${opts.refreshScopes}, ${opts.resource}, now() + make_interval(days => ${opts.refreshTtlDays}))`;
  }
  return { accessToken, refreshToken, expiresIn: opts.accessTtlSeconds, scopes: opts.accessScopes };
}

export interface LockedRefreshToken {
  tokenHash: string;
  grantId: string;
  clientId: string;
  scopes: Scope[];
  resource: string;
  /** Already exchanged for a newer refresh token: presenting it again is reuse. */
  replaced: boolean;
  revoked: boolean;
  expired: boolean;
  grantRevoked: boolean;
}

/** The refresh token's row, locked until the caller's transaction ends (run inside sql.begin). */
export async function lockRefreshToken(tx: Sql, secret: string): Promise<LockedRefreshToken | null> {
  const [r] = await tx<
    {
      token_hash: string;
      grant_id: string;
      client_id: string;
      scopes: Scope[];
      resource: string;
      replaced: boolean;
      revoked: boolean;
      expired: boolean;
      grant_revoked: boolean;
    }[]
  >`
    select t.token_hash, t.grant_id::text, g.client_id, t.scopes, t.resource, t.replaced_by is not null as replaced,
           t.revoked_at is not null as revoked, t.expires_at <= now() as expired, g.revoked_at is not null as grant_revoked
    from oauth_tokens t join oauth_grants g on g.id = t.grant_id
    where t.token_hash = ${hashSecret(secret)} and t.kind = 'refresh'
    for update of t`;
  if (!r) return null;
  return {
    tokenHash: r.token_hash,
    grantId: r.grant_id,
    clientId: r.client_id,
    scopes: r.scopes,
    resource: r.resource,
    replaced: r.replaced,
    revoked: r.revoked,
    expired: r.expired,
    grantRevoked: r.grant_revoked,
  };
}

/**
 * Rotation: the old refresh token stops working and remembers its successor, so a later
 * presentation of it is recognised as reuse (until the expire_records job deletes it a day after
 * its expiry; reusing it then is refused as unknown, which is as safe).
 */
export async function markRefreshReplaced(tx: Sql, oldHash: string, newRefreshToken: string): Promise<void> {
  await tx`update oauth_tokens set revoked_at = now(), replaced_by = ${hashSecret(newRefreshToken)} where token_hash = ${oldHash}`;
}

export interface TokenRecord {
  tokenHash: string;
  kind: 'access' | 'refresh';
  grantId: string;
  clientId: string;
}

/** Any token (live or not) by its secret, for revocation. */
export async function findTokenRecord(sql: Sql, secret: string): Promise<TokenRecord | null> {
  const [r] = await sql<{ token_hash: string; kind: 'access' | 'refresh'; grant_id: string; client_id: string }[]>`
    select t.token_hash, t.kind, t.grant_id::text, g.client_id
    from oauth_tokens t join oauth_grants g on g.id = t.grant_id where t.token_hash = ${hashSecret(secret)}`;
  return r ? { tokenHash: r.token_hash, kind: r.kind, grantId: r.grant_id, clientId: r.client_id } : null;
}

export async function revokeToken(sql: Sql, tokenHash: string): Promise<void> {
  await sql`update oauth_tokens set revoked_at = now() where token_hash = ${tokenHash} and revoked_at is null`;
}
