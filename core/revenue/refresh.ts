// The monthly revenue refresh: each Stripe-connected listing's MRR from its own restricted key,
// recorded for this month as verified. A refused key is noted on the source and shown to its owner.
import type { Sql } from '../../sql/db.ts';
import { open } from './seal.ts';
import { StripeKeyError, stripeMrr } from './stripe-mrr.ts';

export interface RevenueRefresh {
  checked: number;
  recorded: number;
  failed: number;
}

export async function refreshRevenue(sql: Sql, opts: { keysSecret: Buffer | null; stripeApiUrl: string }): Promise<RevenueRefresh> {
  const out: RevenueRefresh = { checked: 0, recorded: 0, failed: 0 };
  if (!opts.keysSecret) return out;
  const sources = await sql<{ listing_id: string; company_id: string; sealed: Buffer }[]>`
    select listing_id::text, company_id::text, stripe_key_sealed as sealed from listing_revenue_sources where kind = 'stripe' order by listing_id`;
  for (const s of sources) {
    out.checked++;
    try {
      const mrr = await stripeMrr(opts.stripeApiUrl, open(opts.keysSecret, Buffer.from(s.sealed)));
      await sql`
        insert into revenue_figures (company_id, month, mrr_cents, currency, verified)
        values (${s.company_id}, date_trunc('month', now() at time zone 'utc')::date, ${mrr.mrr_cents}, ${mrr.currency}, true)
        on conflict (company_id, month) do update set mrr_cents = excluded.mrr_cents, currency = excluded.currency, verified = true`;
      const note = mrr.skipped.length ? `not counted: ${mrr.skipped.map((k) => `${k.subscriptions} subscriptions in ${k.currency}`).join(', ')}` : null;
      await sql`update listing_revenue_sources set last_checked_at = now(), last_error = ${note} where listing_id = ${s.listing_id}`;
      out.recorded++;
    } catch (e) {
      out.failed++;
      const message = e instanceof StripeKeyError ? e.message : `Stripe could not be read: ${(e as Error).message}`;
      await sql`update listing_revenue_sources set last_checked_at = now(), last_error = ${message.slice(0, 1000)} where listing_id = ${s.listing_id}`;
    }
  }
  return out;
}
