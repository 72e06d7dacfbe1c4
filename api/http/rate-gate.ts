import type { Config } from '../../core/config.ts';
import type { OperationContext } from '../registry/operation.ts';
import { clientAddress, rateLimitedResponse, rateLimitHeaders, rateTarget, type RateLimiter } from './rate-limit.ts';

export type RateGate = (
  request: Request,
  ctx: Pick<OperationContext, 'principal'>,
  write: boolean,
) => Promise<{ refused: Response | null; headers: Record<string, string> }>;

/**
 * One rate-limit step for REST and MCP: a valid credential spends its person's budget (reads or
 * writes), shared by all their keys and grants, anything else spends its client address's anonymous budget. Every response carries the
 * RateLimit headers; a refused request gets the 429 problem with Retry-After.
 */
export function rateGate(limiter: RateLimiter, config: Config): RateGate {
  return async (request, ctx, write) => {
    const address = clientAddress(request, { trustProxy: config.trustProxy });
    const { cls, key } = rateTarget({ userId: ctx.principal?.userId ?? null, address, write });
    const d = await limiter.consume(cls, key);
    return { refused: d.allowed ? null : rateLimitedResponse(config.siteUrl, d), headers: rateLimitHeaders(d) };
  };
}
