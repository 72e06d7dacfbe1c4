// Monthly recurring revenue from a maker's restricted read-only Stripe key: the active (and
// trialing-excluded) subscriptions' items, each price normalised to a month, as Stripe's own
// dashboard counts MRR (discounts and taxes aside).

export interface MrrResult {
  mrr_cents: number;
  currency: string;
  subscriptions: number;
  /** Subscriptions in other currencies than the main one, not counted. */
  skipped: { currency: string; subscriptions: number }[];
}

export class StripeKeyError extends Error {}

interface Item {
  quantity?: number | null;
  price?: { unit_amount?: number | null; currency?: string; recurring?: { interval: string; interval_count?: number } | null } | null;
}
interface Subscription {
  id: string;
  currency: string;
  items?: { data?: Item[] };
}

const PER_MONTH: Record<string, number> = { day: 365 / 12, week: 52 / 12, month: 1, year: 1 / 12 };

/** A subscription's monthly amount in cents (unrounded). */
export function monthlyCents(s: Subscription): number {
  let sum = 0;
  for (const item of s.items?.data ?? []) {
    const price = item.price;
    if (!price?.recurring || typeof price.unit_amount !== 'number') continue;
    const factor = (PER_MONTH[price.recurring.interval] ?? 0) / (price.recurring.interval_count || 1);
    sum += price.unit_amount * (item.quantity ?? 1) * factor;
  }
  return sum;
}

/** Reads every active subscription (100 a page, at most 100 pages) with the key; Stripe's REST API directly, so a key never reaches another client. */
export async function stripeMrr(apiUrl: string, key: string, opts: { timeoutMs?: number } = {}): Promise<MrrResult> {
  const byCurrency = new Map<string, { cents: number; subscriptions: number }>();
  let after: string | null = null;
  for (let page = 0; page < 100; page++) {
    const url = new URL('/v1/subscriptions', apiUrl);
    url.searchParams.set('status', 'active');
    url.searchParams.set('limit', '100');
    url.searchParams.append('expand[]', 'data.items.data.price');
    if (after) url.searchParams.set('starting_after', after);
    const res = await fetch(url, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000), redirect: 'error' });
    const body = (await res.json().catch(() => null)) as { data?: Subscription[]; has_more?: boolean; error?: { message?: string } } | null;
    if (res.status === 401 || res.status === 403) throw new StripeKeyError(`Stripe refused the key: ${body?.error?.message ?? res.status}`);
    if (!res.ok || !body || !Array.isArray(body.data)) throw new Error(`Stripe answered ${res.status}${body?.error?.message ? `: ${body.error.message}` : ''}`);
    for (const s of body.data) {
      const c = s.currency.toUpperCase();
      const e = byCurrency.get(c) ?? { cents: 0, subscriptions: 0 };
      e.cents += monthlyCents(s);
      e.subscriptions++;
      byCurrency.set(c, e);
    }
    if (!body.has_more || !body.data.length) break;
    after = body.data[body.data.length - 1].id;
  }
  const ranked = [...byCurrency].sort((a, b) => b[1].subscriptions - a[1].subscriptions || b[1].cents - a[1].cents);
  if (!ranked.length) return { mrr_cents: 0, currency: 'USD', subscriptions: 0, skipped: [] };
  const [[currency, main], ...rest] = ranked;
  return {
    mrr_cents: Math.round(main.cents),
    currency,
    subscriptions: main.subscriptions,
    skipped: rest.map(([c, e]) => ({ currency: c, subscriptions: e.subscriptions })),
  };
}
