import { type Sql, transaction } from '../../sql/db.ts';
import { draftById, type ComparisonState } from '../../core/drafts/store.ts';
import { storePages } from '../../core/drafts/crawl-store.ts';
import { crawlSite } from '../crawl/crawl-site.ts';
import { enqueue, JOBS } from '../../core/jobs/index.ts';
import { orOnLastAttempt, type DraftDeps } from './draft-deps.ts';
import { defineTask } from './task.ts';

export async function setComparison(sql: Sql, id: string, comparison: ComparisonState): Promise<void> {
  await sql`update drafts set comparison = ${sql.json(comparison as never)}::jsonb, updated_at = now() where id = ${id}`;
}

/**
 * crawl_competitor: reads the competitor_url's site the same way as the product's, stores its
 * pages and, once the draft itself is ready, enqueues compare_draft. A job for a competitor
 * URL that has since changed or been cleared does nothing.
 */
export const crawlCompetitor = (deps: DraftDeps) =>
  defineTask(JOBS.crawl_competitor, async ({ draft_id: id, url }, helpers) => {
    await orOnLastAttempt(
      helpers,
      async () => {
        const draft = await draftById(deps.sql, id);
        if (!draft || draft.competitor_url !== url || draft.comparison?.status !== 'crawling') return;
        const result = await crawlSite(url, { fetcher: deps.fetcher, userAgent: deps.userAgent, ...deps.crawl, maxPages: deps.competitorMaxPages });
        await transaction(deps.sql, async (t) => {
          const current = await draftById(t, id, { forUpdate: true });
          if (!current || current.competitor_url !== url || current.comparison?.status !== 'crawling') return;
          const base = current.comparison;
          if (result.status === 'failed') {
            await setComparison(t, id, { ...base, status: 'failed', failure_reason: result.reason, failure_detail: result.detail });
            return;
          }
          await storePages(t, id, 'competitor', result.pages);
          if (current.status === 'failed') {
            await setComparison(t, id, {
              ...base,
              status: 'failed',
              failure_reason: 'no_product_pages',
              failure_detail: "the product's own site could not be read",
            });
            return;
          }
          await setComparison(t, id, { ...base, status: 'comparing' });
          // While the draft is still in progress, draft_profile enqueues the comparison when it finishes.
          if (current.status === 'ready') await enqueue(t, JOBS.compare_draft, { draft_id: id, url });
        });
      },
      (message) => failComparison(deps.sql, id, url, 'crawl_error', message),
    );
  });

/** Ends a comparison still in progress for this URL as failed. */
export async function failComparison(sql: Sql, id: string, url: string, reason: string, detail: string): Promise<void> {
  await sql`
    update drafts set comparison = comparison || ${sql.json({ status: 'failed', failure_reason: reason, failure_detail: detail } as never)}::jsonb,
      updated_at = now()
    where id = ${id} and competitor_url = ${url} and comparison->>'status' in ('crawling', 'comparing')`;
}
