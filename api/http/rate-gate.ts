import type { Config } from '../../sql/config.ts';
import type { OperationContext } from '../registry/operation.ts';
import { addressKey, clientAddress, rateLimitedResponse, rateLimitHeaders, rateTarget, type RateLimiter } from './rate-limit.ts';

export type RateGate = (request: Request, ctx: Pick<OperationContext, 'principal'>, write: boolean) =>
  Promise<{ refused: Response | null; headers: Record<string, string> }>;

/**
 * One rate-limit step for REST and MCP: a valid credential spends its own budget (reads or
 * writes), anything else spends its client address's anonymous budget. Every response carries the
 * RateLimit headers; a refused request gets the 429 problem with Retry-After.
 */
export function rateGate(limiter: RateLimiter, config: Config): RateGate {
  // Parsing and grouping an address costs more than the budget check itself; a busy edge sees the
  // same addresses again and again, so the raw peer string's key is remembered (bounded).
  const keys = new Map<string, string>();
  const keyOf = (request: Request) => {
    const address = clientAddress(request, { trustProxy: config.trustProxy });
    let key = keys.get(address);
    if (key === undefined) {
      if (keys.size >= 10_000) keys.clear();
      keys.set(address, (key = addressKey(address)));
    }
    return key;
  };
  return async (request, ctx, write) => {
    const { cls, key } = ctx.principal
      ? rateTarget({ credentialId: ctx.principal.credentialId, address: '', write })
      : { cls: 'anonymous_read' as const, key: keyOf(request) };
    const d = await limiter.consume(cls, key);
    return { refused: d.allowed ? null : rateLimitedResponse(config.siteUrl, d), headers: rateLimitHeaders(d) };
  };
}
