// Featured placements: paid for at any time, counted from the day the listing is live, so a
// featured week bought for a listing still in the queue is not spent before anyone can see it.
import type { Sql } from '../../sql/db.ts';

/** How long a featured placement lasts (featured, and the featured week of launch_bundle). */
export const FEATURED_DAYS = 7;

/** One featured period for the line, after any current one; null when the listing is not live yet. */
export async function startFeatured(tx: Sql, lineId: string, listingId: string): Promise<{ starts_at: Date; ends_at: Date } | null> {
  const [l] = await tx<{ status: string }[]>`select status from listings where id = ${listingId}`;
  if (l?.status !== 'live') return null;
  // A second featured purchase extends the current period instead of overlapping it.
  const [f] = await tx<{ starts_at: Date; ends_at: Date }[]>`
    insert into listing_featured (listing_id, order_line_id, starts_at, ends_at)
    select ${listingId}, ${lineId}, s, s + make_interval(days => ${FEATURED_DAYS})
    from (select greatest(now(), coalesce((select max(ends_at) from listing_featured where listing_id = ${listingId}), now())) as s) x
    on conflict (order_line_id) do nothing
    returning starts_at, ends_at`;
  return f ?? null;
}

/** When a listing goes live: the featured periods bought while it was not start now. */
export async function startWaitingFeatures(tx: Sql, listingId: number | string): Promise<number> {
  const waiting = await tx<{ id: string }[]>`
    select ol.id::text from order_lines ol join orders o on o.id = ol.order_id
    where ol.listing_id = ${listingId}::bigint and ol.product_code in ('featured', 'launch_bundle') and ol.fulfilment_status = 'fulfilled'
      and o.status in ('paid', 'fulfilled')
      and not exists (select 1 from listing_featured f where f.order_line_id = ol.id)
    order by o.paid_at, ol.position`;
  for (const w of waiting) await startFeatured(tx, w.id, String(listingId));
  return waiting.length;
}
