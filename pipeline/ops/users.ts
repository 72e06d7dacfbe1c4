import { parseArgs } from 'node:util';
import { findOrCreateUser, type User } from '../../core/auth/users.ts';
import type { Sql } from '../../sql/db.ts';
import { email, EXIT, UsageError, type OpsIo } from './io.ts';

/** The account for an address, made if missing; a name given is set. */
export async function ensureUser(sql: Sql, address: string, name?: string): Promise<User & { created: boolean }> {
  const user = await findOrCreateUser(sql, address);
  if (name === undefined || name === user.name) return user;
  const [row] = await sql<{ name: string }[]>`update users set name = ${name} where id = ${user.id} returning name`;
  return { ...user, name: row.name };
}

export function describeUser(u: User & { created: boolean }): string {
  return `user ${u.id} ${u.email}${u.name ? ` "${u.name}"` : ''} (${u.created ? 'created' : 'already there'})`;
}

export function userName(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const name = raw.trim();
  if (!name || name.length > 160) throw new UsageError('--name must be 1 to 160 characters');
  return name;
}

/** user create --email E [--name N] */
export async function userCommand(args: string[], io: OpsIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw new UsageError(sub ? `unknown user command "${sub}"` : 'user needs a command: create');
  const { values } = parseArgs({ args: rest, options: { email: { type: 'string' }, name: { type: 'string' } }, strict: true });
  const user = await ensureUser(io.sql, email(values.email), userName(values.name));
  io.out(describeUser(user));
  return EXIT.ok;
}
