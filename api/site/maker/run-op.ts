import type { AppDeps } from '../../deps.ts';
import type { SessionUser } from '../../../core/auth/sessions.ts';
import { SCOPES } from '../../../core/auth/scopes.ts';
import { execute } from '../../http/execute.ts';
import { validateInput } from '../../http/validate.ts';
import { operations } from '../../registry/index.ts';
import type { Operation, OperationContext } from '../../registry/operation.ts';

export type OpDeps = Pick<AppDeps, 'config' | 'sql' | 'site' | 'cache'>;

const byName = new Map<string, Operation>(operations.map((op) => [op.name, op]));

/**
 * Runs an operation of the registry for the signed-in person of a site form: the same input
 * validation, handler, domain function and errors as its REST route and MCP tool, so a form can
 * never accept what the API refuses or the other way round. A site session holds every scope; it is
 * no API credential (get_account is never run with it). Throws the operation's DomainError.
 */
export async function runOp<T = any>(
  deps: OpDeps,
  user: SessionUser,
  name: string,
  raw: { path?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown } = {},
): Promise<T> {
  const op = byName.get(name);
  if (!op || op.name === 'get_account') throw new Error(`not a maker operation: ${name}`);
  const input = validateInput(op, { path: raw.path ?? {}, query: raw.query ?? {}, body: raw.body }, { convert: op.method === 'GET' });
  const ctx: OperationContext = {
    sql: deps.sql,
    site: deps.site,
    config: deps.config,
    cache: deps.cache,
    // The site is the person's own first-party client: its grant is their session (audits record it as session:<user>).
    principal: { userId: user.userId, email: user.email, kind: 'oauth', credentialId: `session:${user.userId}`, scopes: [...SCOPES] },
    credentialRejected: false,
    requestId: 'site',
  };
  const out = await execute(op, input, ctx);
  return JSON.parse(out.body) as T;
}
