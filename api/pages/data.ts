import type { AppDeps } from '../deps.ts';
import { execute } from '../http/execute.ts';
import { validateInput } from '../http/validate.ts';
import { operations } from '../registry/index.ts';
import type { Operation, OperationContext } from '../registry/operation.ts';

export type PageDeps = Pick<AppDeps, 'config' | 'sql' | 'readSql' | 'site' | 'cache' | 'log' | 'limiter'> & {
  /** The anonymous render's: its reads are cancelled in the database once every client waiting for it has gone. */
  signal?: AbortSignal;
};

const byName = new Map<string, Operation>(operations.map((op) => [op.name, op]));

/**
 * Reads a public operation's answer for a page. Pages never query on their own: they run the same
 * operation the REST and MCP surfaces run (same validation, same sql/queries functions, same
 * shared response cache), so a page and the API can never disagree about an object.
 * Throws the operation's DomainError (not_found, invalid_input) for the page to map.
 */
export async function readOp<T = any>(deps: PageDeps, name: string, raw: { path?: Record<string, unknown>; query?: Record<string, unknown> } = {}): Promise<T> {
  const op = byName.get(name);
  if (!op || op.scope !== null || op.method !== 'GET') throw new Error(`not a public read: ${name}`);
  const input = validateInput(op, { path: raw.path ?? {}, query: raw.query ?? {} }, { convert: true });
  // The reads' pool and the render's signal rather than the render's own cancellable pool: the
  // operation's reads then join those other requests start in the same turn (batched-read.ts), and
  // are still cancelled once every waiting client has gone.
  const ctx: OperationContext = {
    sql: deps.sql,
    readSql: deps.readSql,
    signal: deps.signal,
    site: deps.site,
    config: deps.config,
    cache: deps.cache,
    principal: null,
    credentialRejected: false,
    requestId: 'page',
  };
  const out = await execute(op, input, ctx);
  return JSON.parse(out.body) as T;
}

/** Query parameters of a URL as a plain object (only the first of repeated keys). */
export function queryOf(url: URL, keys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) {
    const v = url.searchParams.get(k);
    if (v !== null && v !== '') out[k] = v;
  }
  return out;
}
