import { Elysia } from 'elysia';
import type { Config } from '../core/config.ts';
import { rateGate } from './http/rate-gate.ts';
import { PROBLEM_KINDS, problem, problemResponse } from './http/problem.ts';
import { mountRest } from './http/rest.ts';
import { mountMcp } from './mcp/mount.ts';
import { mountOpenApi } from './openapi/mount.ts';
import { mountBadgeImages } from './badges/mount.ts';
import type { OperationContext } from './registry/operation.ts';
import type { AppDeps } from './deps.ts';
import { resolvePrincipal } from './auth/principal.ts';
import { resourcesOf } from './auth/challenge.ts';
import { mountSitePages } from './site/mount.ts';
import { mountOAuth } from './oauth/mount.ts';
import { mountBotPage } from './site/bot-page.ts';
import { mountCheckoutPages } from './checkout/pages.ts';
import { mountStripeWebhook } from './checkout/stripe-webhook.ts';
import { operations } from './registry/index.ts';

export type { AppDeps } from './deps.ts';

export const API_PREFIX = '/api/v1';


export function buildApp(deps: AppDeps) {
  const { config } = deps;
  const resources = resourcesOf(config);
  // Credentials are resolved per surface: an OAuth token is valid only at the resource it was issued for.
  // An MCP request is looked at twice (the auth gate, then the tool): its credential is resolved once.
  const resolved = new WeakMap<Request, ReturnType<typeof resolvePrincipal>>();
  const makeContext = async (request: Request, surface: 'rest' | 'mcp' = 'rest'): Promise<OperationContext> => {
    let resolving = resolved.get(request);
    if (!resolving) resolved.set(request, (resolving = resolvePrincipal(deps.sql, request.headers.get('authorization'), resources[surface])));
    const { principal, rejected } = await resolving;
    return {
      sql: deps.sql, site: deps.site, config, cache: deps.cache, principal, credentialRejected: rejected,
      requestId: request.headers.get('x-request-id')?.slice(0, 100) || crypto.randomUUID(),
      idempotencyKey: request.headers.get('idempotency-key') ?? undefined,
    };
  };
  const rateLimit = rateGate(deps.limiter, config);
  const logError = (err: unknown, meta: object) => deps.log.error({ err, ...meta }, 'operation failed');

  const app = new Elysia({ normalize: false })
    // PostgreSQL cannot store or compare U+0000: a URL carrying it is refused on every route here,
    // before any handler passes it to a query. (Bodies are checked by their readers.)
    .onError(({ code, request, error }) => {
      if (code === 'NOT_FOUND') return problemResponse(problem(config.siteUrl, 'not-found', `No route for ${request.method} ${new URL(request.url).pathname}.`));
      if (code === 'PARSE') return problemResponse(problem(config.siteUrl, 'bad-request', 'The request body could not be read.'));
      deps.log.error({ err: error }, 'unhandled error');
      return problemResponse(problem(config.siteUrl, 'internal', 'An unexpected error occurred.'));
    })
    .get('/healthz', async () => {
      await deps.sql`select 1`;
      return { ok: true };
    })
    .get('/problems/:kind', ({ params }) => {
      const k = PROBLEM_KINDS[params.kind];
      if (!k) return problemResponse(problem(config.siteUrl, 'not-found', 'No such problem type.'));
      return new Response(`<!doctype html><meta charset="utf-8"><title>${k.title}</title><h1>${k.status} ${k.title}</h1><p>${k.about}</p>`,
        { headers: { 'content-type': 'text/html; charset=utf-8' } });
    });

  mountRest(app as never, API_PREFIX, operations, { makeContext, rateLimit, config, siteUrl: config.siteUrl, maxBodyBytes: config.maxBodyBytes, httpMaxAge: config.httpCacheMaxAge, logError });
  mountOpenApi(app as never, API_PREFIX, operations, config);
  mountMcp(app as never, operations, { makeContext, rateLimit, config, logError });
  mountBadgeImages(app as never, deps);
  mountSitePages(app as never, deps);
  mountOAuth(app as never, deps);
  mountBotPage(app as never, config);
  mountCheckoutPages(app as never, deps);
  mountStripeWebhook(app as never, deps);
  app.get('/', () => Response.redirect(`${config.siteUrl}/docs`, 302));
  return app;
}
