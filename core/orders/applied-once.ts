// Orders that would do nothing: a listing holds one launch, one queue skip and one relaunch at a
// time. Another order line of the same kind that is waiting for payment, paid, or still in
// effect makes a second one pointless, so it is refused before anyone pays for it.
import type { Sql } from '../../sql/db.ts';
import { DomainError } from '../errors/index.ts';

/** Products that count as the same purchase for a listing. */
const SAME_KIND: Record<string, string[]> = {
  launch: ['launch', 'launch_bundle'],
  launch_bundle: ['launch', 'launch_bundle'],
  skip_queue: ['skip_queue'],
  relaunch: ['relaunch'],
};
export const APPLIED_ONCE = Object.keys(SAME_KIND);

export interface AppliedElsewhere {
  number: string;
  product: string;
  state: 'pending' | 'paid' | 'in_effect';
}

/**
 * Another order's line of the same kind for the listing: pending (unexpired; only when `pending`
 * is asked for), paid and not yet fulfilled (unless `paid` is false: fulfilment, where the first
 * one applied wins), or fulfilled and still in effect (a paid launch, a
 * queue skip while the listing is queued, a relaunch whose week has not begun).
 */
export async function appliedElsewhere(
  sql: Sql,
  listingId: number | string,
  product: string,
  opts: { exceptOrderId?: string | null; pending: boolean; paid?: boolean },
): Promise<AppliedElsewhere | null> {
  const kinds = SAME_KIND[product];
  if (!kinds) return null;
  const [row] = await sql<AppliedElsewhere[]>`
    select o.number, ol.product_code as product,
           case when o.status = 'pending' then 'pending' when ol.fulfilment_status = 'pending' then 'paid' else 'in_effect' end as state
    from order_lines ol join orders o on o.id = ol.order_id join listings l on l.id = ol.listing_id
    where ol.listing_id = ${listingId}::bigint and ol.product_code = any(${kinds}::text[]) and o.id is distinct from ${opts.exceptOrderId ?? null}::bigint
      and ((${opts.pending} and o.status = 'pending' and o.expires_at > now())
        or (${opts.paid ?? true} and o.status in ('paid', 'fulfilled') and ol.fulfilment_status = 'pending')
        or (o.status = 'fulfilled' and ol.fulfilment_status = 'fulfilled' and coalesce((ol.fulfilment->>'applied')::boolean, true) and case
              when ol.product_code in ('launch', 'launch_bundle') then l.plan = 'paid'
              when ol.product_code = 'skip_queue' then l.status in ('awaiting_badge', 'scheduled') and l.plan = 'free'
              else l.launch_week > date_trunc('week', now() at time zone 'utc')::date end))
    order by o.created_at limit 1`;
  return row ?? null;
}

const STATE_WORDS: Record<AppliedElsewhere['state'], string> = {
  pending: 'is waiting for payment',
  paid: 'is paid and about to be applied',
  in_effect: 'is already applied',
};

export function productAlreadyApplied(listingId: number | string, product: string, other: AppliedElsewhere | null): DomainError {
  const what = product.replace('_', ' ');
  if (!other)
    return new DomainError('product_already_applied', `Listing ${listingId} is already on the paid plan with its launch; a second ${what} would do nothing.`);
  return new DomainError(
    'product_already_applied',
    `Listing ${listingId} already has a ${other.product.replace('_', ' ')} in order ${other.number}, which ${STATE_WORDS[other.state]}; a second ${what} would do nothing.${other.state === 'pending' ? ' Pay or let that order expire first.' : ''}`,
    { extensions: { existing_order: { number: other.number, product: other.product, state: other.state } } },
  );
}
