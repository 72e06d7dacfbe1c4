import { parseArgs } from 'node:util';
import { findOrCreateUser, type User } from '../../core/auth/users.ts';
import type { Sql } from '../../sql/db.ts';
import { setSuspended } from '../../core/community/suspensions.ts';
import { email, EXIT, UsageError, type OpsIo } from './io.ts';
import { reasonOf } from './reviews.ts';

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

/** users suspend <email> --reason R | users restore <email> */
async function suspension(sub: 'suspend' | 'restore', rest: string[], io: OpsIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: rest,
    strict: true,
    allowPositionals: true,
    options: sub === 'suspend' ? { reason: { type: 'string' } } : {},
  });
  if (positionals.length > 1) throw new UsageError(`unexpected "${positionals[1]}"`);
  const address = email(positionals[0], 'the e-mail address');
  const reason = sub === 'suspend' ? reasonOf((values as { reason?: string }).reason) : null;
  const outcome = await setSuspended(io.sql, address, reason, io.actor ?? 'operator');
  if (outcome === 'not_found') {
    io.err(`ops: no account ${address}`);
    return EXIT.failed;
  }
  if (outcome === 'already') {
    io.err(`ops: ${address} is ${sub === 'suspend' ? 'already suspended' : 'not suspended'}`);
    return EXIT.failed;
  }
  io.out(
    sub === 'suspend'
      ? `${address} suspended: sessions ended, API keys and OAuth grants revoked; votes, reviews, follows and flags no longer count`
      : `${address} restored: votes, reviews, follows and flags count again`,
  );
  return EXIT.ok;
}

/** user create --email E [--name N] | users suspend <email> --reason R | users restore <email> */
export async function userCommand(args: string[], io: OpsIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'suspend' || sub === 'restore') return suspension(sub, rest, io);
  if (sub !== 'create') throw new UsageError(sub ? `unknown user command "${sub}"` : 'user needs a command: create, suspend or restore');
  const { values } = parseArgs({ args: rest, options: { email: { type: 'string' }, name: { type: 'string' } }, strict: true });
  const user = await ensureUser(io.sql, email(values.email), userName(values.name));
  io.out(describeUser(user));
  return EXIT.ok;
}
