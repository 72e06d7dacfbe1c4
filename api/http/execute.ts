import { type Operation, type OperationContext, Serialized } from '../registry/operation.ts';
import type { CachedBody, Paging } from './cache.ts';
import { runIdempotent } from './idempotency.ts';
import { authorize } from './authorize.ts';
import { etagOf, readThrough } from './public-read.ts';

export { etagMatches, etagOf } from './public-read.ts';

/**
 * What an operation answered. `status` is set when it is not simply the operation's own (a
 * replayed Idempotency-Key response carries the stored one); `replayed` marks such a replay.
 */
export interface Executed extends CachedBody {
  status?: number;
  replayed?: boolean;
}

/** Public reads are cached and carry an ETag; everything else runs every time. */
export const isCacheable = (op: Operation) => op.method === 'GET' && op.scope === null;
// Public reads give the same answer to everyone, so a credential doesn't bypass the shared cache.

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const o = value as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
}

/** The page a list answer reports (page, has_more), or undefined for anything else. */
export function pagingOf(result: unknown): Paging | undefined {
  if (result instanceof Serialized) return result.paging;
  if (result === null || typeof result !== 'object') return undefined;
  const { page, has_more } = result as { page?: unknown; has_more?: unknown };
  return typeof page === 'number' ? { page, has_more: has_more === true } : undefined;
}

/** An answer's body: a handler's own JSON text as it is, anything else stringified. */
const bodyOf = (result: unknown) => (result instanceof Serialized ? result.json : JSON.stringify(result));

/** The cache key of a public read: the operation and its input in canonical order. */
export const readKey = (op: Operation, input: Record<string, unknown>) => `${op.name}:${canonical(input)}`;

/** Runs an operation with already-validated input and returns its serialised body. */
export async function execute(op: Operation, input: Record<string, unknown>, ctx: OperationContext, cacheKey?: string): Promise<Executed> {
  authorize(op, ctx);
  if (!isCacheable(op)) {
    const run = async () => bodyOf(await op.handler(input, ctx));
    if (op.idempotent && ctx.idempotencyKey !== undefined) {
      const out = await runIdempotent(op, ctx, ctx.idempotencyKey, canonical(input), run);
      return { ...out, etag: etagOf(out.body) };
    }
    const body = await run();
    return { body, etag: etagOf(body) };
  }
  // A public read: through the one public-read pipeline (cache, single flight, bounded reads).
  return readThrough(
    ctx,
    cacheKey ?? readKey(op, input),
    () => ctx.signal,
    async (sql, signal) => {
      const result = await op.handler(input, { ...ctx, signal, sql });
      return { body: bodyOf(result), paging: pagingOf(result) };
    },
  );
}
