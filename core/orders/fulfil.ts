// Fulfilment of a paid order: every line exactly once. Each line is applied in its own transaction
// that locks the line and re-checks it is still pending, so a retried or duplicated job skips what
// is done. Public reads change at once (directory_changed()); the ranking views are refreshed by a
// refresh_views job enqueued at the end.
import { transaction, type Sql } from '../../sql/db.ts';
import { JOBS } from '../jobs/catalogue.ts';
import { enqueue } from '../jobs/enqueue.ts';
import { fulfilLaunch, fulfilRelaunch, fulfilSkipQueue, type LaunchResult } from './fulfil-launch.ts';
import { writeAiReview } from './ai-review.ts';
import { APPLIED_ONCE, appliedElsewhere } from './applied-once.ts';
import { FEATURED_DAYS, startFeatured } from './featured.ts';
import { publicListingOfProduct } from '../listings/product-key.ts';

export { FEATURED_DAYS } from './featured.ts';
export const BUNDLE_SECTIONS = ['story', 'milestones', 'media'];

interface LineRow {
  id: string;
  order_id: string;
  site_id: number;
  user_id: string;
  product_code: string;
  listing_id: string | null;
  week: string | null;
  categories: string[];
  options: Record<string, unknown> | null;
  amount_cents: number;
  currency: string;
  order_status: string;
  fulfilment_status: string;
}

async function featureFor(tx: Sql, lineId: string, listingId: string): Promise<LaunchResult> {
  const f = await startFeatured(tx, lineId, listingId);
  if (!f) return { summary: `Featured for ${FEATURED_DAYS} days from the moment the listing is live.`, featured_from: null, waiting_for_live: true };
  return {
    summary: `Featured from ${f.starts_at.toISOString()} until ${f.ends_at.toISOString()}.`,
    featured_from: f.starts_at.toISOString(),
    featured_until: f.ends_at.toISOString(),
  };
}

async function applyLine(tx: Sql, line: LineRow): Promise<LaunchResult> {
  const listing = line.listing_id!;
  switch (line.product_code) {
    case 'launch':
      return fulfilLaunch(tx, line.site_id, listing, line.week);
    case 'skip_queue':
      return fulfilSkipQueue(tx, line.site_id, listing, line.week!);
    case 'relaunch':
      return fulfilRelaunch(tx, line.site_id, listing, line.week!);
    case 'featured':
      return featureFor(tx, line.id, listing);
    case 'launch_bundle': {
      const launch = await fulfilLaunch(tx, line.site_id, listing, null);
      const featured = await featureFor(tx, line.id, listing);
      await tx`update listings set unlocked_sections = array(select distinct unnest(unlocked_sections || ${BUNDLE_SECTIONS}::text[]) order by 1), updated_at = now()
               where id = ${listing}`;
      return {
        summary: `Bundle: ${launch.summary} ${featured.summary} Sections unlocked: ${BUNDLE_SECTIONS.join(', ')}.`,
        parts: { launch, featured, unlocked_sections: BUNDLE_SECTIONS },
      };
    }
    case 'done_for_you': {
      const notes = typeof line.options?.notes === 'string' ? line.options.notes : null;
      const [t] = await tx<{ id: string }[]>`
        insert into operator_tasks (kind, order_line_id, listing_id, notes) values ('done_for_you', ${line.id}, ${listing}, ${notes}) returning id::text`;
      return { summary: `Operator task #${t.id} opened: the site team lists the product on other launch sites and reports back.`, task_id: Number(t.id) };
    }
    case 'extra_categories': {
      const added: string[] = [];
      const skipped: { slug: string; reason: string }[] = [];
      for (const slug of line.categories) {
        const [{ extras }] = await tx<
          { extras: number }[]
        >`select count(*)::int as extras from listing_categories where listing_id = ${listing} and not is_primary`;
        const [c] = await tx<{ id: number; primary: boolean }[]>`
          select c.id, c.id = l.primary_category_id as primary from categories c, listings l where c.slug = ${slug} and l.id = ${listing}`;
        if (!c) {
          skipped.push({ slug, reason: 'the category no longer exists' });
          continue;
        }
        if (c.primary) {
          skipped.push({ slug, reason: 'it became the primary category' });
          continue;
        }
        if (extras >= 3) {
          skipped.push({ slug, reason: 'the listing already has 3 extra categories' });
          continue;
        }
        const ins =
          await tx`insert into listing_categories (listing_id, category_id, is_primary) values (${listing}, ${c.id}, false) on conflict do nothing returning 1`;
        if (ins.length) added.push(slug);
        else skipped.push({ slug, reason: 'already one of its categories' });
      }
      return {
        summary: `Categories added: ${added.join(', ') || 'none'}${skipped.length ? `; not added: ${skipped.map((s) => `${s.slug} (${s.reason})`).join(', ')}` : ''}.`,
        added,
        skipped,
      };
    }
    case 'ai_review':
      return writeAiReview(tx, line.id, listing, typeof line.options?.focus === 'string' ? line.options.focus : null);
    case 'billboard_min': {
      await tx`insert into billboard_contributions (listing_id, user_id, amount_cents, currency, order_line_id)
               values (${listing}, ${line.user_id}, ${line.amount_cents}, ${line.currency}, ${line.id})`;
      return {
        summary: `Billboard contribution of ${line.amount_cents} cents ${line.currency}, shown on the billboard as paid placement.`,
        amount_cents: line.amount_cents,
      };
    }
    default:
      return { summary: `No fulfilment is defined for ${line.product_code}.`, applied: false };
  }
}

/**
 * Applies a line unless paying for it has become pointless: the same kind of product already
 * applied to the listing by another order, or (for a launch) another listing of the product gone
 * public on the site. The listing row is locked first, so of two paid orders the first applied
 * wins; the other is not applied and its order is refunded (refund_due).
 */
async function applyUseful(tx: Sql, line: LineRow): Promise<LaunchResult> {
  const listing = line.listing_id!;
  if (APPLIED_ONCE.includes(line.product_code)) {
    const [l] = await tx<{ url: string; status: string }[]>`select url, status from listings where id = ${listing} for update`;
    if (!l) return { summary: 'Not applied: the listing no longer exists.', applied: false, refund_due: true };
    const other = await appliedElsewhere(tx, listing, line.product_code, { exceptOrderId: line.order_id, pending: false, paid: false });
    if (other) {
      return {
        summary: `Not applied: order ${other.number} already gave the listing a ${other.product}; this order is refunded.`,
        applied: false,
        refund_due: true,
      };
    }
    if ((line.product_code === 'launch' || line.product_code === 'launch_bundle') && l.status === 'draft') {
      const existing = await publicListingOfProduct(tx, line.site_id, l.url, { except: Number(listing) });
      if (existing) {
        return {
          summary: `Not applied: the product is already public on this site as /listings/${existing.slug}; this order is refunded.`,
          applied: false,
          refund_due: true,
        };
      }
    }
  }
  return applyLine(tx, line);
}

/** Fulfils one line if it is still pending on a paid order; true when this call did it. */
async function fulfilLine(sql: Sql, lineId: string): Promise<boolean> {
  return transaction(sql, async (tx) => {
    const [line] = await tx<LineRow[]>`
      select ol.id::text, ol.order_id::text, o.site_id, o.user_id::text, ol.product_code, ol.listing_id::text, to_char(ol.week, 'YYYY-MM-DD') as week,
             ol.categories, ol.options, ol.amount_cents::int, o.currency, o.status as order_status, ol.fulfilment_status
      from order_lines ol join orders o on o.id = ol.order_id where ol.id = ${lineId} for update of ol`;
    if (line?.fulfilment_status !== 'pending' || line.order_status !== 'paid') return false;
    const result = line.listing_id ? await applyUseful(tx, line) : { summary: 'Not applied: the listing no longer exists.', applied: false };
    await tx`update order_lines set fulfilment_status = 'fulfilled', fulfilled_at = now(), fulfilment = ${tx.json(result as never)} where id = ${lineId}`;
    await tx`select directory_changed()`;
    return true;
  });
}

/** Runs the fulfilment of a paid order; safe to run any number of times. */
export async function fulfilOrder(sql: Sql, orderId: number): Promise<{ fulfilled: number }> {
  const lines = await sql<{ id: string }[]>`select id::text from order_lines where order_id = ${orderId} and fulfilment_status = 'pending' order by position`;
  let fulfilled = 0;
  for (const l of lines) if (await fulfilLine(sql, l.id)) fulfilled++;
  await transaction(sql, async (tx) => {
    const done = await tx`update orders set status = 'fulfilled', fulfilled_at = now(), updated_at = now()
                          where id = ${orderId} and status = 'paid'
                            and not exists (select 1 from order_lines where order_id = ${orderId} and fulfilment_status = 'pending')
                          returning 1`;
    if (done.length || fulfilled) await enqueue(tx, JOBS.refresh_views, {}, { key: 'refresh_views' });
    const [due] = await tx`select 1 from order_lines where order_id = ${orderId} and (fulfilment->>'refund_due')::boolean limit 1`;
    if (due) await enqueue(tx, JOBS.refund_order, { order_id: orderId });
  });
  return { fulfilled };
}
