import { transaction } from '../../sql/db.ts';
import { draftById, failDraft } from '../../core/drafts/store.ts';
import { storePages } from '../../core/drafts/crawl-store.ts';
import { crawlSite } from '../crawl/crawl-site.ts';
import { enqueue, JOBS } from '../../core/jobs/index.ts';
import { orOnLastAttempt, type DraftDeps } from './draft-deps.ts';
import { defineTask } from './task.ts';

const SKIPPED_KEPT = 200;

/**
 * crawl_draft: reads the submitted site, stores its pages, moves the draft to drafting and
 * enqueues draft_profile. A crawl failure (robots.txt, unreachable, not HTML, too large, ...)
 * ends the draft as failed with that reason. A re-delivered job finds the draft past crawling
 * and does nothing.
 */
export const crawlDraft = (deps: DraftDeps) =>
  defineTask(JOBS.crawl_draft, async ({ draft_id: id }, helpers) => {
    await orOnLastAttempt(
      helpers,
      async () => {
        const draft = await draftById(deps.sql, id);
        if (draft?.status !== 'crawling') return;
        const result = await crawlSite(draft.url, { fetcher: deps.fetcher, userAgent: deps.userAgent, ...deps.crawl });
        if (result.status === 'failed') {
          await failDraft(deps.sql, id, result.reason, result.detail);
          helpers.logger.info(`draft ${id}: crawl failed (${result.reason})`);
          return;
        }
        const { pages, skipped } = result;
        await transaction(deps.sql, async (t) => {
          const current = await draftById(t, id, { forUpdate: true });
          if (current?.status !== 'crawling') return;
          await storePages(t, id, 'site', pages);
          await t`update drafts set status = 'drafting', crawl_skipped = ${t.json(skipped.slice(0, SKIPPED_KEPT) as never)}::jsonb, updated_at = now()
              where id = ${id}`;
          await enqueue(t, JOBS.draft_profile, { draft_id: id });
        });
      },
      (message) => failDraft(deps.sql, id, 'crawl_error', message),
    );
  });
