// A listing's revenue as its owner sets it (set_listing_revenue): a self-reported monthly
// recurring revenue, or a restricted Stripe key the worker reads MRR from each month. The key is
// sealed before it is stored and never returned; only its last four characters are.
import { transaction, type Sql } from '../../sql/db.ts';
import { DomainError, invalidFields } from '../errors/index.ts';
import { JOBS } from '../jobs/catalogue.ts';
import { enqueue } from '../jobs/enqueue.ts';
import { ownListingId } from '../listings/own-listing.ts';
import { seal } from './seal.ts';

export interface RevenueInput {
  mrr_cents?: number;
  currency?: string;
  stripe_key?: string;
}

export interface ListingRevenue {
  listing_id: number;
  source: 'self_reported' | 'stripe';
  verified: boolean;
  mrr_cents: number | null;
  currency: string | null;
  month: string | null;
  stripe_key_hint: string | null;
  last_checked_at: string | null;
  last_error: string | null;
}

/** Restricted keys only: a full secret key (sk_) could move money, so it is refused, never stored. */
export const RESTRICTED_KEY = /^rk_(live|test)_[A-Za-z0-9]{10,200}$/;

export async function listingRevenue(sql: Sql, listingId: number): Promise<ListingRevenue> {
  const [r] = await sql<ListingRevenue[]>`
    select s.listing_id::int, s.kind as source, coalesce(f.verified, false) as verified, f.mrr_cents::int, f.currency,
           to_char(f.month, 'YYYY-MM-DD') as month, s.stripe_key_hint,
           to_char(s.last_checked_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as last_checked_at, s.last_error
    from listing_revenue_sources s
    left join lateral (select * from revenue_figures f where f.company_id = s.company_id order by month desc limit 1) f on true
    where s.listing_id = ${listingId}`;
  return r;
}

export async function setListingRevenue(
  owner: { sql: Sql; userId: string; siteId: number },
  listingId: number,
  input: RevenueInput,
  keysSecret: Buffer | null,
): Promise<ListingRevenue> {
  const self = input.mrr_cents !== undefined || input.currency !== undefined;
  if (self && input.stripe_key !== undefined)
    throw invalidFields([{ field: 'stripe_key', message: 'send either mrr_cents with currency, or stripe_key, not both' }]);
  if (!self && input.stripe_key === undefined) throw invalidFields([{ field: 'mrr_cents', message: 'send mrr_cents with currency, or stripe_key' }]);
  if (self && (input.mrr_cents === undefined || input.currency === undefined))
    throw invalidFields([{ field: input.mrr_cents === undefined ? 'mrr_cents' : 'currency', message: 'mrr_cents and currency go together' }]);
  if (input.stripe_key !== undefined && !RESTRICTED_KEY.test(input.stripe_key))
    throw invalidFields([
      {
        field: 'stripe_key',
        message: 'must be a restricted key (rk_live_... or rk_test_...) with read access to subscriptions; secret keys (sk_) are refused',
      },
    ]);
  if (input.stripe_key !== undefined && !keysSecret)
    throw new DomainError(
      'stripe_keys_disabled',
      'This site does not store Stripe keys (REVENUE_KEYS_SECRET is not set); send mrr_cents and currency instead.',
    );

  return transaction(owner.sql, async (tx) => {
    const id = await ownListingId(tx, owner, listingId, { forUpdate: true });
    const [{ company_id }] = await tx<{ company_id: string }[]>`select company_id::text from listings where id = ${id}`;
    if (input.stripe_key !== undefined) {
      const sealed = seal(keysSecret!, input.stripe_key);
      await tx`
        insert into listing_revenue_sources (listing_id, company_id, kind, stripe_key_sealed, stripe_key_hint, last_checked_at, last_error)
        values (${id}, ${company_id}, 'stripe', ${sealed}, ${input.stripe_key.slice(-4)}, null, null)
        on conflict (listing_id) do update set kind = 'stripe', company_id = excluded.company_id, stripe_key_sealed = excluded.stripe_key_sealed,
          stripe_key_hint = excluded.stripe_key_hint, last_checked_at = null, last_error = null, updated_at = now()`;
      // The first figure comes at once rather than at the next monthly run.
      await enqueue(tx, JOBS.refresh_revenue, {});
    } else {
      await tx`
        insert into listing_revenue_sources (listing_id, company_id, kind) values (${id}, ${company_id}, 'self_reported')
        on conflict (listing_id) do update set kind = 'self_reported', company_id = excluded.company_id, stripe_key_sealed = null,
          stripe_key_hint = null, last_checked_at = null, last_error = null, updated_at = now()`;
      await tx`
        insert into revenue_figures (company_id, month, mrr_cents, currency, verified)
        values (${company_id}, date_trunc('month', now() at time zone 'utc')::date, ${input.mrr_cents!}, ${input.currency!}, false)
        on conflict (company_id, month) do update set mrr_cents = excluded.mrr_cents, currency = excluded.currency, verified = false`;
    }
    return listingRevenue(tx, id);
  });
}
