import { transaction } from '../../sql/db.ts';
import { isDraftField, type DraftFieldName } from '../../core/drafts/fields.ts';
import { applyAi, DRAFT_PARTS, type DraftPart } from '../../core/drafts/model.ts';
import { syncListing, syncScopeOf } from '../../core/drafts/listing-sync.ts';
import { contentOf, draftById, writeContent } from '../../core/drafts/store.ts';
import { loadPages } from '../../core/drafts/crawl-store.ts';
import { checkProposal } from '../drafting/index.ts';
import { JOBS } from '../../core/jobs/index.ts';
import { categoryTree, orOnLastAttempt, type DraftDeps } from './draft-deps.ts';
import { defineTask } from './task.ts';

const isPart = (name: string): name is DraftPart => (DRAFT_PARTS as readonly string[]).includes(name);

/**
 * regenerate_draft: redrafts the parts listed in drafts.regenerating from the stored crawl.
 * Only parts still on the list when the result is written are replaced (a user's edit in the
 * meantime took its part off the list). Once submitted, the listing follows. A drafter that
 * still fails on the last attempt empties the list and leaves regenerate_error.
 */
export const regenerateDraft = (deps: DraftDeps) =>
  defineTask(JOBS.regenerate_draft, async ({ draft_id: id }, helpers) => {
    let wanted: DraftPart[] = [];
    await orOnLastAttempt(
      helpers,
      async () => {
        const draft = await draftById(deps.sql, id);
        if (draft?.status !== 'ready') return;
        wanted = draft.regenerating.filter(isPart);
        if (wanted.length === 0) return;
        // Fields alone can be redrafted alone; a section needs the whole draft.
        const only = wanted.every(isDraftField) ? (wanted as DraftFieldName[]) : undefined;
        const pages = await loadPages(deps.sql, id, 'site');
        const { names, categories } = await categoryTree(deps.sql);
        const proposal = checkProposal(await deps.drafter.draft({ pages, categoryNames: names, categories, only }), pages, {
          categoryNames: names,
          categories,
        });
        await transaction(deps.sql, async (t) => {
          const current = await draftById(t, id, { forUpdate: true });
          if (!current) return;
          const still = current.regenerating.filter((n): n is DraftPart => isPart(n) && wanted.includes(n));
          if (still.length === 0) return;
          const content = contentOf(current);
          applyAi(content, proposal, still, new Set(still));
          await writeContent(t, id, content, { regenerating: current.regenerating.filter((n) => !still.includes(n as DraftPart)) });
          if (current.listing_id !== null) await syncListing(t, current, content, syncScopeOf(still));
        });
      },
      (message) => deps.sql`
    update drafts set regenerating = case when ${wanted.length} = 0 then '{}'
                                          else array(select unnest(regenerating) except select unnest(${wanted}::text[])) end,
      regenerate_error = ${message}, updated_at = now()
    where id = ${id}`,
    );
  });
