import { transaction } from '../../sql/db.ts';
import { applyAi, DRAFT_PARTS } from '../../core/drafts/model.ts';
import { contentOf, draftById, failDraft, writeContent } from '../../core/drafts/store.ts';
import { loadPages } from '../../core/drafts/crawl-store.ts';
import { checkProposal } from '../drafting/index.ts';
import { enqueue, JOBS } from '../../core/jobs/index.ts';
import { categoryTree, orOnLastAttempt, type DraftDeps } from './draft-deps.ts';
import { defineTask } from './task.ts';

/**
 * draft_profile: drafts every field and section from the stored crawl, keeps only what the
 * evidence check lets through, writes it (skipping parts the user has set meanwhile) and marks
 * the draft ready. A drafter that still fails on the last attempt ends the draft as failed.
 */
export const draftProfile = (deps: DraftDeps) =>
  defineTask(JOBS.draft_profile, async ({ draft_id: id }, helpers) => {
    await orOnLastAttempt(
      helpers,
      async () => {
        const draft = await draftById(deps.sql, id);
        if (draft?.status !== 'drafting') return;
        const pages = await loadPages(deps.sql, id, 'site');
        const { names, categories } = await categoryTree(deps.sql);
        // The drafters run the evidence check themselves; running it here too keeps that promise whatever drafter is configured.
        const proposal = checkProposal(await deps.drafter.draft({ pages, categoryNames: names, categories }), pages, { categoryNames: names, categories });
        await transaction(deps.sql, async (t) => {
          const current = await draftById(t, id, { forUpdate: true });
          if (current?.status !== 'drafting') return;
          const content = contentOf(current);
          applyAi(content, proposal, DRAFT_PARTS);
          await writeContent(t, id, content);
          await t`update drafts set status = 'ready', drafted_at = now(), updated_at = now() where id = ${id}`;
          // A competitor read while the draft was in progress waits for the draft's own pages.
          if (current.comparison?.status === 'comparing' && current.competitor_url) {
            await enqueue(t, JOBS.compare_draft, { draft_id: id, url: current.competitor_url });
          }
        });
      },
      (message) => failDraft(deps.sql, id, 'drafting_failed', message),
    );
  });
