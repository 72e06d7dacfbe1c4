import { transaction } from '../../sql/db.ts';
import { draftById } from '../../core/drafts/store.ts';
import { loadPages } from '../../core/drafts/crawl-store.ts';
import { checkComparison } from '../drafting/index.ts';
import { JOBS } from '../../core/jobs/index.ts';
import { failComparison, setComparison } from './crawl-competitor.ts';
import { orOnLastAttempt, type DraftDeps } from './draft-deps.ts';
import { defineTask } from './task.ts';

/**
 * compare_draft: a short comparison of the product with its competitor from the stored pages of
 * both sites; only points whose values are quoted from their own site are kept. A job without a
 * url compares with the competitor the draft names now.
 */
export const compareDraft = (deps: DraftDeps) =>
  defineTask(JOBS.compare_draft, async (payload, helpers) => {
    const id = payload.draft_id;
    const url = payload.url ?? (await draftById(deps.sql, id))?.competitor_url;
    if (!url) return;
    await orOnLastAttempt(
      helpers,
      async () => {
        const draft = await draftById(deps.sql, id);
        if (draft?.status !== 'ready' || draft.competitor_url !== url || draft.comparison?.status !== 'comparing') return;
        const [product, competitor] = await Promise.all([loadPages(deps.sql, id, 'site'), loadPages(deps.sql, id, 'competitor')]);
        const productName = (draft.fields as { name?: { value?: unknown } }).name?.value;
        const proposed = await deps.drafter.compare({ product, competitor, productName: typeof productName === 'string' ? productName : null });
        const result = checkComparison(proposed, product, competitor);
        await transaction(deps.sql, async (t) => {
          const current = await draftById(t, id, { forUpdate: true });
          if (!current || current.competitor_url !== url || current.comparison?.status !== 'comparing') return;
          await setComparison(t, id, {
            ...current.comparison,
            status: 'ready',
            name: result.competitor.name,
            points: result.points.map((p) => ({ topic: p.value.topic, product: p.value.product, competitor: p.value.competitor, evidence: p.evidence })),
          });
        });
      },
      (message) => failComparison(deps.sql, id, url, 'comparing_failed', message),
    );
  });
