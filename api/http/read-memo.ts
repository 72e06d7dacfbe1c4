import type { Paging } from './cache.ts';
import type { KeptHeaders } from './public-read.ts';

/**
 * What a public read's URL always comes to: its validated input and cache key, and the page links
 * last built for it. Public reads repeat, and parsing, validating and canonicalising the same URL
 * again cost about as much as answering it from the cache. Only valid URLs are remembered; the
 * input is frozen, so a handler that tried to change it would fail loudly instead of changing it
 * for the next request.
 */
export interface ReadPlan {
  input: Record<string, unknown>;
  key: string;
  links?: { page: number; has_more: boolean; header: string | null };
  /** The constant headers of the answer last sent for this URL (public-read.ts, answerKept). */
  kept?: KeptHeaders;
}

/** A bounded map of plans by URL; when full it starts over (no per-hit bookkeeping on the hot path). */
export function readMemo(max = 2_000) {
  const plans = new Map<string, ReadPlan>();
  return {
    get: (url: string) => plans.get(url),
    remember(url: string, input: Record<string, unknown>, key: string): ReadPlan {
      if (plans.size >= max) plans.clear();
      const plan: ReadPlan = { input: deepFreeze(input), key };
      plans.set(url, plan);
      return plan;
    },
  };
}

/** The Link header for a page of this plan, rebuilt only when the page or has_more differ from last time. */
export function planLinks(plan: ReadPlan, paging: Paging | undefined, build: (p: Paging | undefined) => string | null): string | null {
  if (!paging) return build(paging);
  const last = plan.links;
  if (last && last.page === paging.page && last.has_more === paging.has_more) return last.header;
  const header = build(paging);
  plan.links = { page: paging.page, has_more: paging.has_more, header };
  return header;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
