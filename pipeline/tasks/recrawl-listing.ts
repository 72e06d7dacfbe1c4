import { transaction } from '../../sql/db.ts';
import { applyRecrawl } from '../../core/recrawl/apply.ts';
import { finishItem, queuedItem } from '../../core/recrawl/batches.ts';
import { JOBS } from '../../core/jobs/index.ts';
import { crawlSite } from '../crawl/crawl-site.ts';
import { checkProposal } from '../drafting/index.ts';
import { categoryTree, orOnLastAttempt, type DraftDeps } from './draft-deps.ts';
import { defineTask } from './task.ts';

/**
 * recrawl_listing: re-crawls one listing of an operator batch (robots.txt and its Crawl-delay
 * honoured by the crawler; the job's queue is the host, so one host is crawled by one job at a
 * time), drafts from the new pages with the evidence check, and applies the result
 * (core/recrawl/apply.ts). A cancelled or already finished item is left alone (at-least-once
 * delivery). A crawl failure ends the item as failed with its reason; the listing is untouched.
 */
export const recrawlListing = (deps: DraftDeps) =>
  defineTask(JOBS.recrawl_listing, async ({ batch_id: batchId, listing_id: listingId }, helpers) => {
    await orOnLastAttempt(
      helpers,
      async () => {
        if (!(await queuedItem(deps.sql, batchId, listingId))) return;
        const [listing] = await deps.sql<{ url: string }[]>`select url from listings where id = ${listingId}`;
        if (!listing) return;
        const result = await crawlSite(listing.url, { fetcher: deps.fetcher, userAgent: deps.userAgent, ...deps.crawl });
        if (result.status === 'failed') {
          await finishItem(deps.sql, batchId, listingId, { failure: { reason: result.reason, detail: result.detail } });
          return;
        }
        const { names, categories } = await categoryTree(deps.sql);
        const proposal = checkProposal(await deps.drafter.draft({ pages: result.pages, categoryNames: names, categories }), result.pages, {
          categoryNames: names,
          categories,
        });
        await transaction(deps.sql, async (t) => {
          if (!(await queuedItem(t, batchId, listingId))) return; // cancelled meanwhile
          await applyRecrawl(t, listingId, proposal, batchId);
          await finishItem(t, batchId, listingId, {});
        });
      },
      (message) => finishItem(deps.sql, batchId, listingId, { failure: { reason: 'recrawl_error', detail: message } }),
    );
  });
