import type { Sql } from '../../sql/db.ts';
import { hashSecret, newSecret, SECRET_PREFIX } from './secrets.ts';
import type { Scope } from './scopes.ts';

export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** Makes a key; the secret is returned here once and never stored. */
export async function createApiKey(sql: Sql, opts: { userId: string; name: string; scopes: Scope[] }): Promise<ApiKeyRow & { secret: string }> {
  const secret = newSecret(SECRET_PREFIX.apiKey);
  const [row] = await sql<ApiKeyRow[]>`
    insert into api_keys (user_id, name, prefix, secret_hash, scopes)
    values (${opts.userId}, ${opts.name}, ${secret.slice(0, 12)}, ${hashSecret(secret)}, ${opts.scopes})
    returning id::text, name, prefix, scopes, created_at, last_used_at, revoked_at`;
  return { ...row, secret };
}

export async function listApiKeys(sql: Sql, userId: string): Promise<ApiKeyRow[]> {
  return sql<ApiKeyRow[]>`
    select id::text, name, prefix, scopes, created_at, last_used_at, revoked_at
    from api_keys where user_id = ${userId} order by created_at desc, id desc`;
}

/** Revokes a key; with userId, only that user's key. Returns whether a live key was revoked. */
export async function revokeApiKey(sql: Sql, id: string, userId?: string): Promise<boolean> {
  if (!/^\d{1,18}$/.test(id)) return false;
  const rows = await sql`
    update api_keys set revoked_at = now()
    where id = ${id} and revoked_at is null ${userId ? sql`and user_id = ${userId}` : sql``}
    returning id`;
  return rows.length > 0;
}

/**
 * The live key for a presented secret. last_used_at is written at most once a minute per key
 * so that a busy key does not turn every read into a write.
 */
export async function findApiKey(sql: Sql, secret: string): Promise<{ id: string; userId: string; email: string; scopes: Scope[] } | null> {
  const [row] = await sql<{ id: string; user_id: string; email: string; scopes: Scope[] }[]>`
    with hit as (select k.id, k.user_id, u.email, k.scopes, k.last_used_at from api_keys k join users u on u.id = k.user_id
                 where k.secret_hash = ${hashSecret(secret)} and k.revoked_at is null),
    touch as (update api_keys k set last_used_at = now() from hit
              where k.id = hit.id and (hit.last_used_at is null or hit.last_used_at < now() - interval '1 minute'))
    select id::text, user_id::text, email, scopes from hit`;
  return row ? { id: row.id, userId: row.user_id, email: row.email, scopes: row.scopes } : null;
}
