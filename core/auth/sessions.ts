import type { Sql } from '../../sql/db.ts';
import { hashSecret, newSecret, SECRET_PREFIX } from './secrets.ts';

export interface SessionUser {
  userId: string;
  email: string;
  sessionHash: string;
}

/** Starts a session; the returned id goes into the cookie and is stored only as a hash. */
export async function createSession(sql: Sql, userId: string, ttlHours: number): Promise<{ id: string; expiresAt: Date }> {
  const id = newSecret(SECRET_PREFIX.session);
  const [row] = await sql<{ expires_at: Date }[]>`
    insert into sessions (id_hash, user_id, expires_at)
    values (${hashSecret(id)}, ${userId}, now() + make_interval(hours => ${ttlHours}))
    returning expires_at`;
  await sql`update users set last_sign_in_at = now() where id = ${userId}`;
  return { id, expiresAt: row.expires_at };
}

export async function findSession(sql: Sql, id: string): Promise<SessionUser | null> {
  if (!id.startsWith(SECRET_PREFIX.session) || id.length > 100) return null;
  const [row] = await sql<{ user_id: string; email: string; id_hash: string }[]>`
    select s.user_id::text, u.email, s.id_hash from sessions s join users u on u.id = s.user_id
    where s.id_hash = ${hashSecret(id)} and s.ended_at is null and s.expires_at > now() and u.suspended_at is null`;
  return row ? { userId: row.user_id, email: row.email, sessionHash: row.id_hash } : null;
}

export async function endSession(sql: Sql, id: string): Promise<void> {
  await sql`update sessions set ended_at = now() where id_hash = ${hashSecret(id)} and ended_at is null`;
}
