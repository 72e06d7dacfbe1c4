import type { Sql } from '../../sql/db.ts';
import { hashSecret, newSecret, SECRET_PREFIX } from './secrets.ts';
import type { Scope } from './scopes.ts';

/**
 * A grant is one consent: a person allowed one client these scopes at one resource. Every Allow
 * makes a new grant with exactly one authorization code, so "the tokens issued from a code" are
 * the grant's tokens, and revoking the grant ends that code's whole token family (every rotated
 * refresh token and every access token). Two installations of one app (same client ID metadata
 * document) therefore hold separate grants and can be disconnected separately.
 */
export interface NewGrant {
  userId: string;
  clientId: string;
  scopes: Scope[];
  resource: string;
  redirectUri: string;
  redirectUriGiven: boolean;
  codeChallenge: string;
  codeTtlSeconds: number;
}

/** Records the consent and its single-use code in one statement; the code is returned once and stored as a hash. */
export async function createGrantWithCode(sql: Sql, g: NewGrant): Promise<{ grantId: string; code: string }> {
  const code = newSecret(SECRET_PREFIX.authCode);
  const [row] = await sql<{ grant_id: string }[]>`
    with grant_row as (
      insert into oauth_grants (user_id, client_id, scopes, resource)
      values (${g.userId}, ${g.clientId}, ${g.scopes}, ${g.resource}) returning id)
    insert into oauth_codes (code_hash, grant_id, redirect_uri, redirect_uri_given, code_challenge, expires_at)
    select ${hashSecret(code)}, id, ${g.redirectUri}, ${g.redirectUriGiven}, ${g.codeChallenge}, now() + make_interval(secs => ${g.codeTtlSeconds})
    from grant_row
    returning grant_id::text`;
  return { grantId: row.grant_id, code };
}

export interface LockedCode {
  codeHash: string;
  grantId: string;
  userId: string;
  clientId: string;
  scopes: Scope[];
  resource: string;
  redirectUri: string;
  redirectUriGiven: boolean;
  codeChallenge: string;
  used: boolean;
  expired: boolean;
  grantRevoked: boolean;
}

/** The code's row, locked until the caller's transaction ends (run inside sql.begin). */
export async function lockCode(tx: Sql, code: string): Promise<LockedCode | null> {
  const [r] = await tx<
    {
      code_hash: string;
      grant_id: string;
      user_id: string;
      client_id: string;
      scopes: Scope[];
      resource: string;
      redirect_uri: string;
      redirect_uri_given: boolean;
      code_challenge: string;
      used: boolean;
      expired: boolean;
      grant_revoked: boolean;
    }[]
  >`
    select c.code_hash, c.grant_id::text, g.user_id::text, g.client_id, g.scopes, g.resource, c.redirect_uri, c.redirect_uri_given,
           c.code_challenge, c.used_at is not null as used, c.expires_at <= now() as expired, g.revoked_at is not null as grant_revoked
    from oauth_codes c join oauth_grants g on g.id = c.grant_id
    where c.code_hash = ${hashSecret(code)}
    for update of c`;
  if (!r) return null;
  return {
    codeHash: r.code_hash,
    grantId: r.grant_id,
    userId: r.user_id,
    clientId: r.client_id,
    scopes: r.scopes,
    resource: r.resource,
    redirectUri: r.redirect_uri,
    redirectUriGiven: r.redirect_uri_given,
    codeChallenge: r.code_challenge,
    used: r.used,
    expired: r.expired,
    grantRevoked: r.grant_revoked,
  };
}

export async function markCodeUsed(tx: Sql, codeHash: string): Promise<void> {
  await tx`update oauth_codes set used_at = now() where code_hash = ${codeHash}`;
}

/**
 * Revokes a grant and every token issued under it. With userId, only that person's grant.
 * Returns whether a live grant was revoked.
 */
export async function revokeGrant(sql: Sql, grantId: string, userId?: string): Promise<boolean> {
  if (!/^\d{1,18}$/.test(grantId)) return false;
  const rows = await sql`
    with g as (
      update oauth_grants set revoked_at = now()
      where id = ${grantId} and revoked_at is null ${userId ? sql`and user_id = ${userId}` : sql``}
      returning id),
    t as (update oauth_tokens set revoked_at = now() where grant_id in (select id from g) and revoked_at is null)
    select id from g`;
  return rows.length > 0;
}

export interface Connection {
  grantId: string;
  clientId: string;
  clientName: string | null;
  clientUri: string | null;
  clientKind: 'registered' | 'metadata_document';
  scopes: Scope[];
  resource: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/**
 * A person's connected apps: grants not revoked that still hold a live token (a consent whose
 * code was never redeemed, or whose tokens all expired, connects nothing).
 */
export async function listConnections(sql: Sql, userId: string): Promise<Connection[]> {
  const rows = await sql<
    {
      id: string;
      client_id: string;
      client_name: string | null;
      client_uri: string | null;
      kind: Connection['clientKind'];
      scopes: Scope[];
      resource: string;
      created_at: Date;
      last_used_at: Date | null;
    }[]
  >`
    select g.id::text, g.client_id, c.client_name, c.client_uri, c.kind, g.scopes, g.resource, g.created_at,
           (select max(t.last_used_at) from oauth_tokens t where t.grant_id = g.id) as last_used_at
    from oauth_grants g join oauth_clients c on c.client_id = g.client_id
    where g.user_id = ${userId} and g.revoked_at is null
      and exists (select 1 from oauth_tokens t where t.grant_id = g.id and t.revoked_at is null and t.expires_at > now())
    order by g.created_at desc, g.id desc`;
  return rows.map((r) => ({
    grantId: r.id,
    clientId: r.client_id,
    clientName: r.client_name,
    clientUri: r.client_uri,
    clientKind: r.kind,
    scopes: r.scopes,
    resource: r.resource,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
  }));
}
