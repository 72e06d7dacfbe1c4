// Operator re-crawl batches (npm run ops -- recrawl): which listings a selector picks, the batch
// and its jobs (one per listing, keyed by the listing, queued per host), progress and cancel.
import { transaction, type Sql } from '../../sql/db.ts';
import { enqueue, JOBS } from '../jobs/index.ts';

/** What a batch re-crawls; every given part must hold (and). Listings of this site only. */
export interface RecrawlSelector {
  /** Every live listing. */
  all?: boolean;
  status?: string;
  /** A category slug (primary or extra category). */
  category?: string;
  ids?: number[];
  slugs?: string[];
  /** Last re-crawled before this time (never re-crawled counts as before any date). */
  crawledBefore?: string;
}

export interface SelectedListing {
  id: number;
  url: string;
  host: string;
}

/** The listings a selector picks, by id. */
export async function selectListings(sql: Sql, siteId: number, s: RecrawlSelector): Promise<SelectedListing[]> {
  const rows = await sql<{ id: number; url: string }[]>`
    select l.id::int, l.url from listings l
    where l.site_id = ${siteId}
      ${s.all ? sql`and l.status = 'live'` : sql``}
      ${s.status ? sql`and l.status = ${s.status}` : sql``}
      ${
        s.category
          ? sql`and exists (select 1 from listing_categories lc join categories c on c.id = lc.category_id
                            where lc.listing_id = l.id and c.slug = ${s.category})`
          : sql``
      }
      ${s.ids?.length ? sql`and l.id = any(${s.ids}::bigint[])` : sql``}
      ${s.slugs?.length ? sql`and l.slug = any(${s.slugs}::text[])` : sql``}
      ${s.crawledBefore ? sql`and coalesce(l.last_crawled_at, '-infinity') < ${s.crawledBefore}::timestamptz` : sql``}
    order by l.id`;
  return rows.flatMap((r) => {
    try {
      return [{ id: r.id, url: r.url, host: new URL(r.url).host.toLowerCase() }];
    } catch {
      return []; // a listing without a usable URL has nothing to re-crawl
    }
  });
}

export interface CreatedBatch {
  id: string;
  selected: number;
  queued: number;
  /** Listings left out because another batch already has them waiting (listing id -> batch id). */
  alreadyQueued: { listing_id: number; batch_id: string }[];
}

/**
 * Makes a batch of the selected listings and enqueues one recrawl_listing job per listing, in one
 * transaction. A listing already waiting in a batch is not queued again (partial unique index and
 * the listing's job key), so running the same command twice adds no work.
 */
export async function createBatch(sql: Sql, siteId: number, selector: RecrawlSelector, opts: { concurrency: number; actor: string }): Promise<CreatedBatch> {
  return transaction(sql, async (t) => {
    const picked = await selectListings(t, siteId, selector);
    const [batch] = await t<{ id: string }[]>`
      insert into recrawl_batches (selector, concurrency, created_by) values (${t.json(selector as never)}, ${opts.concurrency}, ${opts.actor.slice(0, 200) || 'operator'})
      returning id::text`;
    const waiting = picked.length
      ? await t<{ listing_id: number; batch_id: string }[]>`
          select listing_id::int, batch_id::text from recrawl_items where status = 'queued' and listing_id = any(${picked.map((p) => p.id)}::bigint[])`
      : [];
    const busy = new Set(waiting.map((w) => w.listing_id));
    const fresh = picked.filter((p) => !busy.has(p.id));
    if (fresh.length) {
      await t`insert into recrawl_items ${t(
        fresh.map((p) => ({ batch_id: batch.id, listing_id: p.id })),
        'batch_id',
        'listing_id',
      )} on conflict do nothing`;
    }
    for (const p of fresh) await enqueue(t, JOBS.recrawl_listing, { batch_id: batch.id, listing_id: p.id, host: p.host });
    return { id: batch.id, selected: picked.length, queued: fresh.length, alreadyQueued: waiting };
  });
}

export interface BatchProgress {
  id: string;
  total: number;
  queued: number;
  done: number;
  failed: number;
  cancelled: number;
  concurrency: number;
  created_at: Date;
  cancelled_at: Date | null;
  /** Last finished item (for the rate). */
  last_finished_at: Date | null;
}

/** The batch's counts by status; null when there is no such batch. */
export async function batchProgress(sql: Sql, id: string): Promise<BatchProgress | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await sql<BatchProgress[]>`
    select b.id::text, b.concurrency, b.created_at, b.cancelled_at,
      count(i.listing_id)::int as total,
      count(*) filter (where i.status = 'queued')::int as queued,
      count(*) filter (where i.status = 'done')::int as done,
      count(*) filter (where i.status = 'failed')::int as failed,
      count(*) filter (where i.status = 'cancelled')::int as cancelled,
      max(i.finished_at) as last_finished_at
    from recrawl_batches b left join recrawl_items i on i.batch_id = b.id
    where b.id = ${id}::uuid group by b.id`;
  return row ?? null;
}

/** The failed items of a batch with their reasons (for the operator). */
export async function batchFailures(sql: Sql, id: string, limit = 20) {
  return sql<{ listing_id: number; slug: string; url: string; failure_reason: string | null; failure_detail: string | null }[]>`
    select i.listing_id::int, l.slug, l.url, i.failure_reason, i.failure_detail from recrawl_items i join listings l on l.id = i.listing_id
    where i.batch_id = ${id}::uuid and i.status = 'failed' order by i.finished_at, i.listing_id limit ${limit}`;
}

/**
 * Cancels a batch: its waiting items become cancelled and their jobs are removed (a job already
 * running finishes; its task sees the item is no longer queued and writes nothing). Returns the
 * number of items cancelled, or null for an unknown batch.
 */
export async function cancelBatch(sql: Sql, id: string): Promise<number | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  return transaction(sql, async (t) => {
    const [batch] = await t`update recrawl_batches set cancelled_at = coalesce(cancelled_at, now()) where id = ${id}::uuid returning id`;
    if (!batch) return null;
    const items = await t<{ listing_id: number }[]>`
      update recrawl_items set status = 'cancelled', finished_at = now() where batch_id = ${id}::uuid and status = 'queued' returning listing_id::int`;
    for (const i of items) await t`select graphile_worker.remove_job(${`recrawl_listing:${i.listing_id}`})`;
    return items.length;
  });
}

/** The item the job is for, when it still waits (locked, so a cancel waits for the write). */
export async function queuedItem(sql: Sql, batchId: string, listingId: number): Promise<boolean> {
  const [row] = await sql`
    select 1 from recrawl_items i join recrawl_batches b on b.id = i.batch_id
    where i.batch_id = ${batchId}::uuid and i.listing_id = ${listingId} and i.status = 'queued' and b.cancelled_at is null
    for update of i`;
  return Boolean(row);
}

export async function finishItem(sql: Sql, batchId: string, listingId: number, outcome: { failure?: { reason: string; detail: string } }): Promise<void> {
  const f = outcome.failure;
  await sql`
    update recrawl_items set status = ${f ? 'failed' : 'done'}, failure_reason = ${f?.reason ?? null}, failure_detail = ${f ? f.detail.slice(0, 2000) : null},
      finished_at = now()
    where batch_id = ${batchId}::uuid and listing_id = ${listingId} and status = 'queued'`;
}
