import type { Sql } from '../db.ts';

export interface AccountRow {
  id: string;
  email: string;
  name: string | null;
  created_at: Date;
  last_sign_in_at: Date | null;
}

export async function accountOf(sql: Sql, userId: string): Promise<AccountRow | null> {
  const [row] = await sql<AccountRow[]>`select id::text, email, name, created_at, last_sign_in_at from users where id = ${userId}`;
  return row ?? null;
}

/** The credential's own record: an API key's name, or an OAuth grant's client. */
export async function credentialOf(sql: Sql, credentialId: string): Promise<{ name: string | null; client_id: string | null; created_at: Date | null }> {
  const [kind, id] = credentialId.split(':');
  if (kind === 'key') {
    const [k] = await sql<{ name: string; created_at: Date }[]>`select name, created_at from api_keys where id = ${id}`;
    return { name: k?.name ?? null, client_id: null, created_at: k?.created_at ?? null };
  }
  const [g] = await sql<{ client_name: string | null; client_id: string; created_at: Date }[]>`
    select c.client_name, g.client_id, g.created_at from oauth_grants g join oauth_clients c on c.client_id = g.client_id where g.id = ${id}`;
  return { name: g?.client_name ?? null, client_id: g?.client_id ?? null, created_at: g?.created_at ?? null };
}
