import type { Config } from '../../core/config.ts';
import type { OperationContext } from '../registry/operation.ts';
import { clientAddress, type RateDecision, rateLimitedResponse, rateLimitHeaders, rateTarget, type RateLimiter } from './rate-limit.ts';

export type RateGate = (
  request: Request,
  ctx: Pick<OperationContext, 'principal'>,
  write: boolean,
) => Promise<{ refused: Response | null; headers: Record<string, string> }>;

/**
 * The one rate-limit step of REST, MCP and pages: a valid credential spends its person's budget
 * (reads or writes), shared by all their keys and grants, anything else spends its client
 * address's anonymous budget. Every response carries the RateLimit headers; a refused request gets
 * `refusal` (by default the 429 problem with Retry-After; pages answer people with a short text).
 */
export function rateGate(
  limiter: RateLimiter,
  config: Config,
  refusal: (d: RateDecision, request: Request) => Response = (d, request) => rateLimitedResponse(request, config.siteUrl, d),
): RateGate {
  return async (request, ctx, write) => {
    const address = clientAddress(request, { trustProxy: config.trustProxy });
    const { cls, key } = rateTarget({ userId: ctx.principal?.userId ?? null, address, write });
    const d = await limiter.consume(cls, key);
    return { refused: d.allowed ? null : refusal(d, request), headers: rateLimitHeaders(d) };
  };
}
