import type { Sql } from '../db.ts';
import { hashSecret } from './secrets.ts';
import type { Scope } from './scopes.ts';

export interface AccessTokenInfo { userId: string; email: string; grantId: string; clientId: string; scopes: Scope[]; resource: string; expiresAt: Date }

/** A live access token: not expired, not revoked, its grant not revoked. */
export async function findAccessToken(sql: Sql, secret: string): Promise<AccessTokenInfo | null> {
  const [row] = await sql<{ user_id: string; email: string; grant_id: string; client_id: string; scopes: Scope[]; resource: string; expires_at: Date }[]>`
    select g.user_id::text, u.email, g.id::text as grant_id, g.client_id, t.scopes, t.resource, t.expires_at
    from oauth_tokens t join oauth_grants g on g.id = t.grant_id join users u on u.id = g.user_id
    where t.token_hash = ${hashSecret(secret)} and t.kind = 'access'
      and t.revoked_at is null and g.revoked_at is null and t.expires_at > now()`;
  return row ? { userId: row.user_id, email: row.email, grantId: row.grant_id, clientId: row.client_id, scopes: row.scopes, resource: row.resource, expiresAt: row.expires_at } : null;
}
