import type { Resolved } from '../auth/principal.ts';
import type { AppDeps } from '../deps.ts';
import type { OperationContext } from '../registry/operation.ts';
import { requestIdOf } from './request-id.ts';

export type ContextDeps = Pick<AppDeps, 'sql' | 'readSql' | 'site' | 'config' | 'cache'>;

/**
 * The context an operation runs in for one request, once its credential is resolved. Credentials
 * are resolved per surface (an OAuth token is valid only at the resource it was issued for), so
 * each surface resolves its own and hands the result in here.
 */
export function operationContext(deps: ContextDeps, request: Request, credential: Resolved): OperationContext {
  return {
    sql: deps.sql,
    readSql: deps.readSql,
    site: deps.site,
    config: deps.config,
    cache: deps.cache,
    principal: credential.principal,
    credentialRejected: credential.rejected,
    requestId: requestIdOf(request),
    idempotencyKey: request.headers.get('idempotency-key') ?? undefined,
    // Read only on a miss: Bun makes a request's signal when it is first asked for.
    get signal() {
      return request.signal;
    },
  };
}
