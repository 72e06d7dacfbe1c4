import { resolvePrincipal } from '../auth/principal.ts';
import { resourcesOf } from '../auth/challenge.ts';
import type { AppDeps } from '../deps.ts';
import { operations } from '../registry/index.ts';
import type { Operation } from '../registry/operation.ts';
import { operationContext } from './context.ts';
import { API_PREFIX } from './prefix.ts';
import { rateGate } from './rate-gate.ts';
import { restRoutes } from './rest.ts';
import { securityHeaders } from './security-headers.ts';

/** The REST API: every operation of the registry under /api/v1, credentials resolved for the REST resource. */
export function restPlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'readSql' | 'site' | 'cache' | 'log' | 'limiter'>, ops: Operation[] = operations) {
  const { config } = deps;
  const resource = resourcesOf(config).rest;
  return restRoutes(API_PREFIX, ops, {
    makeContext: async (request) => operationContext(deps, request, await resolvePrincipal(deps.sql, request.headers.get('authorization'), resource)),
    rateLimit: rateGate(deps.limiter, config),
    config,
    siteUrl: config.siteUrl,
    maxBodyBytes: config.maxBodyBytes,
    httpMaxAge: config.httpCacheMaxAge,
    logError: (err, meta) => deps.log.error({ err, ...meta }, 'operation failed'),
    always: securityHeaders(config),
  });
}
