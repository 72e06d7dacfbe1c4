import { parseArgs } from 'node:util';
import { createApiKey, listApiKeys, revokeApiKey } from '../../core/auth/api-keys.ts';
import { parseScopes, SCOPES } from '../../core/auth/scopes.ts';
import { findUserByEmail } from '../../core/auth/users.ts';
import { describeUser, ensureUser } from './users.ts';
import { email, EXIT, isoTime, OpsFailure, UsageError, type OpsIo } from './io.ts';

function keyName(raw: string | undefined): string {
  const name = (raw ?? 'ops').trim();
  if (!name || name.length > 100) throw new UsageError('--name must be 1 to 100 characters');
  return name;
}

function scopes(raw: string | undefined) {
  if (!raw?.trim()) throw new UsageError(`--scopes is required: a comma-separated list of ${SCOPES.join(', ')}`);
  const parsed = parseScopes(raw);
  if (parsed.unknown.length) throw new UsageError(`unknown scope ${parsed.unknown.map((s) => `"${s}"`).join(', ')}; known scopes: ${SCOPES.join(', ')}`);
  return parsed.scopes;
}

/** api-key create: the secret goes alone on the last line, so scripts can take it with `tail -n 1`. */
async function create(args: string[], io: OpsIo): Promise<number> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string' } }, strict: true });
  const address = email(values.email);
  const wanted = scopes(values.scopes);
  const name = keyName(values.name);
  const user = await ensureUser(io.sql, address);
  const key = await createApiKey(io.sql, { userId: user.id, name, scopes: wanted });
  io.out(describeUser(user));
  io.out(`api key ${key.id} "${key.name}" with ${key.scopes.join(', ')}; use it as Authorization: Bearer <secret>.`);
  io.out('The secret is shown once and stored only as a hash:');
  io.out(key.secret);
  return EXIT.ok;
}

async function list(args: string[], io: OpsIo): Promise<number> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' } }, strict: true });
  const address = email(values.email);
  const user = await findUserByEmail(io.sql, address);
  if (!user) throw new OpsFailure(`no account for ${address}`);
  const keys = await listApiKeys(io.sql, user.id);
  if (!keys.length) {
    io.out(`no API keys for ${user.email}`);
    return EXIT.ok;
  }
  io.out(['id', 'name', 'prefix', 'scopes', 'created', 'last used', 'revoked'].join('\t'));
  for (const k of keys) {
    io.out([k.id, k.name, `${k.prefix}…`, k.scopes.join(','), isoTime(k.created_at), isoTime(k.last_used_at), isoTime(k.revoked_at)].join('\t'));
  }
  return EXIT.ok;
}

async function revoke(args: string[], io: OpsIo): Promise<number> {
  const { positionals } = parseArgs({ args, options: {}, strict: true, allowPositionals: true });
  if (positionals.length !== 1) throw new UsageError('api-key revoke takes one key id');
  const id = positionals[0];
  if (!/^\d{1,18}$/.test(id)) throw new UsageError(`the key id must be a number, got "${id}"`);
  if (!(await revokeApiKey(io.sql, id))) throw new OpsFailure(`no live API key with id ${id}`);
  io.out(`revoked API key ${id}`);
  return EXIT.ok;
}

/** api-key create | list | revoke */
export async function apiKeyCommand(args: string[], io: OpsIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'create') return create(rest, io);
  if (sub === 'list') return list(rest, io);
  if (sub === 'revoke') return revoke(rest, io);
  throw new UsageError(sub ? `unknown api-key command "${sub}"` : 'api-key needs a command: create, list or revoke');
}
