import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { rateGate } from '../http/rate-gate.ts';
import { preflight, withHeaders } from './responses.ts';

/**
 * A cookie-less OAuth POST endpoint (token, register, revoke): open to any origin (CORS
 * preflight answered), spending the caller address's anonymous budget, with RateLimit headers.
 */
export function openEndpoint(deps: Pick<AppDeps, 'config' | 'limiter'>, name: string, path: string, handle: (request: Request) => Promise<Response>) {
  const limit = rateGate(deps.limiter, deps.config);
  return new Elysia({ name }).options(path, preflight).post(
    path,
    async ({ request }) => {
      const gate = await limit(request, { principal: null }, false);
      if (gate.refused) return gate.refused;
      return withHeaders(await handle(request), gate.headers);
    },
    { parse: 'none' },
  );
}
