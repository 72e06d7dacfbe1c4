import type { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { rateGate } from '../http/rate-gate.ts';
import { preflight, withHeaders } from './responses.ts';

/**
 * Mounts a cookie-less OAuth POST endpoint (token, register, revoke): open to any origin (CORS
 * preflight answered), spending the caller address's anonymous budget, with RateLimit headers.
 */
export function mountOpenEndpoint(app: Elysia, deps: AppDeps, path: string, handle: (request: Request) => Promise<Response>) {
  const limit = rateGate(deps.limiter, deps.config);
  app.options(path, preflight);
  app.post(path, async ({ request }: { request: Request }) => {
    const gate = await limit(request, { principal: null }, false);
    if (gate.refused) return gate.refused;
    return withHeaders(await handle(request), gate.headers);
  }, { parse: 'none' } as never);
}
