import { createHash } from 'node:crypto';
import { DomainError } from '../../sql/errors.ts';
import type { Operation, OperationContext } from '../registry/operation.ts';
import type { CachedBody } from './cache.ts';

/** Public reads are cached and carry an ETag; everything else runs every time. */
export const isCacheable = (op: Operation) => op.method === 'GET' && op.scope === null;
// Public reads give the same answer to everyone, so a credential doesn't bypass the shared cache.

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const o = value as Record<string, unknown>;
  return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
}

export const etagOf = (body: string) => `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;

/** Runs an operation with already-validated input and returns its serialised body. */
export async function execute(op: Operation, input: Record<string, unknown>, ctx: OperationContext): Promise<CachedBody> {
  // A credential that was sent but is not valid is refused on every operation, public ones
  // included: a mistyped or revoked key should fail loudly, not read as anonymous.
  if (ctx.credentialRejected) throw new DomainError('unauthorized', 'The credential is invalid, expired, revoked or issued for another resource.');
  if (op.scope !== null) {
    if (!ctx.principal) throw new DomainError('unauthorized', 'This operation needs a credential: send Authorization: Bearer <API key or access token>.');
    if (!ctx.principal.scopes.includes(op.scope)) throw new DomainError('forbidden', `This credential lacks the ${op.scope} scope.`);
  }
  if (!isCacheable(op)) {
    const body = JSON.stringify(await op.handler(input as never, ctx));
    return { body, etag: etagOf(body) };
  }
  const key = `${op.name}:${canonical(input)}`;
  const hit = await ctx.cache.get(key);
  if (hit) return hit;
  const gen = ctx.cache.generation;
  const body = JSON.stringify(await op.handler(input as never, ctx));
  const value = { body, etag: etagOf(body) };
  // Don't store a result computed while a write landed: it may predate the write.
  if (gen === ctx.cache.generation) await ctx.cache.set(key, value);
  return value;
}

/** If-None-Match matching per RFC 9110 (weak comparison, lists and *). */
export function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
