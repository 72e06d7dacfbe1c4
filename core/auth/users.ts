import type { Sql } from '../../sql/db.ts';

export interface User {
  id: string;
  email: string;
  name: string | null;
  created_at: Date;
}

/** The account for an e-mail address (case-insensitive), made on first use. */
export async function findOrCreateUser(sql: Sql, email: string): Promise<User & { created: boolean }> {
  const normalized = email.trim();
  const [made] = await sql<User[]>`
    insert into users (email) values (${normalized})
    on conflict ((lower(email))) do nothing
    returning id::text, email, name, created_at`;
  if (made) return { ...made, created: true };
  const [found] = await sql<User[]>`select id::text, email, name, created_at from users where lower(email) = lower(${normalized})`;
  return { ...found, created: false };
}

export async function findUserByEmail(sql: Sql, email: string): Promise<User | null> {
  const [u] = await sql<User[]>`select id::text, email, name, created_at from users where lower(email) = lower(${email.trim()})`;
  return u ?? null;
}
