import { Elysia } from 'elysia';
import { errorHeaders, problem, problemFromError, problemResponse } from './http/problem.ts';
import { DomainError } from '../core/errors/index.ts';
import type { AppDeps } from './deps.ts';
import { problemPagesPlugin } from './http/service-pages.ts';
import { healthPlugin } from './health.ts';
import { securityHeaders } from './http/security-headers.ts';
import { restPlugin } from './http/rest-plugin.ts';
import { openApiPlugin } from './openapi/mount.ts';
import { mcpPlugin } from './mcp/mount.ts';
import { badgesPlugin } from './badges/mount.ts';
import { sitePlugin } from './site/mount.ts';
import { MAKER_SECTION, makerPlugin } from './site/maker/plugin.ts';
import { oauthPlugin } from './oauth/mount.ts';
import { CONNECTIONS_SECTION } from './oauth/connections-page.tsx';
import { botPagePlugin } from './site/bot-page.tsx';
import { notFoundPage, publicPagesPlugin } from './pages/plugin.ts';
import { checkoutPlugin } from './checkout/pages.ts';
import { stripeWebhookPlugin } from './checkout/stripe-webhook.ts';
import { documentsPlugin } from './documents/mount.ts';
import { statsPlugin } from './stats/mount.ts';
import { statsPagePlugin } from './stats/stats-page.tsx';
import { imagesPlugin } from './images/mount.ts';
import { finishResponse, isCorsPath, wirePlugin } from './http/wire.ts';
import { allowedMethodsOf } from './http/allowed-methods.ts';
import { observabilityPlugin, withEdgeMetrics } from './observability/edge-observability.ts';

export type { AppDeps } from './deps.ts';
export { API_PREFIX } from './http/prefix.ts';

/**
 * The edge: each area is its own Elysia instance, composed here. The error handler sits on this
 * root before any area is used, so it covers every route (and requests no route matches).
 * U+0000 in a URL, which PostgreSQL cannot hold, is refused by each reader before a query sees it.
 */
export function buildApp(appDeps: AppDeps) {
  const deps = withEdgeMetrics({ ...appDeps });
  const { config } = deps;
  const always = securityHeaders(config);
  let allowedMethods: ((pathname: string) => string[]) | undefined;
  // A request no route takes does not pass the wire's mapResponse: it is finished here.
  const unrouted = (request: Request) => {
    const { pathname } = new URL(request.url);
    allowedMethods ??= allowedMethodsOf(app.routes);
    const allowed = allowedMethods(pathname);
    if (allowed.length) {
      const allow = [...allowed, ...(isCorsPath(pathname) ? ['OPTIONS'] : [])].join(', ');
      return problemResponse(request, problem(config.siteUrl, 'method-not-allowed', `${pathname} takes ${allow}, not ${request.method}.`), { allow });
    }
    return notFoundPage(deps, request) ?? problemResponse(request, problem(config.siteUrl, 'not-found', `No route for ${request.method} ${pathname}.`));
  };
  const app = new Elysia({ normalize: false })
    .use(observabilityPlugin(deps))
    .onError(({ code, request, error }) => {
      // An error's answer may skip the mapResponse hooks, so it is finished here (finishing twice changes nothing).
      const answer = (response: Response) => finishResponse(request, response, always);
      if (code === 'NOT_FOUND') return answer(unrouted(request));
      if (code === 'PARSE') return answer(problemResponse(request, problem(config.siteUrl, 'bad-request', 'The request body could not be read.')));
      if (error instanceof DomainError) return answer(problemResponse(request, problemFromError(config.siteUrl, error), errorHeaders(error)));
      deps.log.error({ err: error }, 'unhandled error');
      return answer(problemResponse(request, problem(config.siteUrl, 'internal', 'An unexpected error occurred.')));
    })
    .use(wirePlugin(always))
    // Before the areas: its after-response hook counts get_listing reads of the REST and MCP routes.
    .use(statsPlugin(deps))
    .use(healthPlugin(deps))
    .use(problemPagesPlugin(deps))
    .use(restPlugin(deps))
    .use(openApiPlugin(deps))
    .use(mcpPlugin(deps))
    .use(badgesPlugin(deps))
    .use(sitePlugin(deps, { accountSections: [MAKER_SECTION, CONNECTIONS_SECTION] }))
    .use(makerPlugin(deps))
    .use(oauthPlugin(deps))
    .use(botPagePlugin(deps))
    .use(checkoutPlugin(deps))
    .use(stripeWebhookPlugin(deps))
    .use(documentsPlugin(deps))
    .use(statsPagePlugin(deps))
    .use(imagesPlugin(deps))
    .use(publicPagesPlugin(deps));
  return app;
}
