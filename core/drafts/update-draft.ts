// update_draft: applies a user's edit to their draft under its row lock, enqueues the redraft and
// competitor jobs it asks for, and carries the change to the listing once the draft was submitted.
import type { Sql } from '../../sql/db.ts';
import { contentOf, writeContent, type DraftRow } from './store.ts';
import type { DraftView } from './view.ts';
import { canonicalCategories } from './canonical-categories.ts';
import { draftConflict, invalidFields } from './draft-errors.ts';
import type { DraftFieldName } from './fields.ts';
import { syncListing, syncScopeOf } from './listing-sync.ts';
import { DRAFT_SECTIONS, aiDrafted, lockPart, restorePart, setField, setSection, stateOf, type DraftContent } from './model.ts';
import { draftViewById, withOwnDraftLocked, type DraftOwner } from './own-draft.ts';
import { normaliseSubmittedUrl } from './submitted-url.ts';
import { contradictions, sectionFromInput, type DraftUpdate } from './update-input.ts';
import { enqueue, JOBS } from '../jobs/index.ts';

type TypedFields = Record<DraftFieldName, string | string[] | null>;
/** undefined: not sent; null: cleared; otherwise the normalised competitor site. */
type CompetitorChange = { url: string } | null | undefined;

/** Checks, applies and writes one update_draft call; answers the draft as it is afterwards. */
export async function updateDraft(owner: DraftOwner & { allowLoopback: boolean }, input: DraftUpdate): Promise<DraftView> {
  const clash = contradictions(input);
  if (clash.length) throw invalidFields(clash, 'contradictory_edit');
  const fields = { ...(input.fields ?? {}) } as TypedFields;
  if (Array.isArray(fields.categories)) fields.categories = await canonicalCategories(owner.sql, fields.categories);
  const competitor: CompetitorChange =
    input.competitor_url === undefined || input.competitor_url.trim() === ''
      ? input.competitor_url === undefined
        ? undefined
        : null
      : normaliseSubmittedUrl(input.competitor_url, 'competitor_url', { allowLoopback: owner.allowLoopback });

  await withOwnDraftLocked(owner, input.id, async (t, row) => {
    const content = contentOf(row);
    checkAllowed(row, content, input);
    const { touched, regenerating, regenerate } = applyEdits(content, row.regenerating, fields, input);
    await writeContent(t, row.id, content, { regenerating });
    if (regenerate.length) {
      await t`update drafts set regenerate_error = null where id = ${row.id}`;
      await enqueue(t, JOBS.regenerate_draft, { draft_id: row.id });
    }
    if (input.seo !== undefined) {
      const seo = { title: input.seo.title?.trim() || null, meta: input.seo.meta?.trim() || null };
      await t`update drafts set seo = ${t.json(seo as never)}::jsonb where id = ${row.id}`;
      row.seo = seo;
      touched.add('seo');
    }
    await writeCompetitor(t, row, competitor);
    // Once submitted, the listing follows the draft (spec section 3), in this same transaction.
    if (row.listing_id !== null && touched.size > 0) {
      const { listingId } = await syncListing(t, row, content, syncScopeOf(touched));
      if (listingId !== row.listing_id) await t`update drafts set listing_id = ${listingId} where id = ${row.id}`;
    }
  });
  return draftViewById(owner.sql, input.id);
}

/** The 409s: what the draft's status and the parts' states do not allow yet. */
function checkAllowed(row: DraftRow, content: DraftContent, input: DraftUpdate): void {
  const inProgress = row.status === 'crawling' || row.status === 'drafting';
  if (inProgress && (input.regenerate?.length || input.restore?.length)) {
    throw draftConflict('draft_in_progress', `The draft is still ${row.status}: regenerate and restore work once it is ready (poll get_draft).`);
  }
  for (const name of input.restore ?? []) {
    if (!aiDrafted(content, name))
      throw draftConflict('nothing_to_restore', `The AI has not drafted "${name}" for this draft, so there is nothing to restore.`);
  }
  if (input.regenerate?.length && row.status !== 'ready') {
    throw draftConflict('draft_failed', "This draft's site could not be read (status failed), so there is nothing to redraft from.");
  }
  for (const name of input.regenerate ?? []) {
    if (stateOf(content, name) === 'override')
      throw draftConflict('field_locked', `"${name}" is locked against AI redrafts (override); restore it or type a value first.`);
  }
}

/**
 * Applies typed values, sections, restores and locks to content. A part the user changes leaves the
 * regenerating list (the user's change wins); parts to regenerate join it.
 */
function applyEdits(content: DraftContent, wasRegenerating: string[], fields: TypedFields, input: DraftUpdate) {
  const touched = new Set<string>();
  let regenerating = wasRegenerating.slice();
  const userTakes = (name: string) => {
    regenerating = regenerating.filter((r) => r !== name);
  };
  for (const [name, value] of Object.entries(fields) as [DraftFieldName, string | string[] | null][]) {
    setField(content, name, value);
    touched.add(name);
    userTakes(name);
  }
  for (const section of DRAFT_SECTIONS) {
    if (input[section] === undefined) continue;
    setSection(content, section, sectionFromInput(section, input, content));
    touched.add(section);
    userTakes(section);
  }
  for (const name of new Set(input.restore ?? [])) {
    restorePart(content, name);
    touched.add(name);
    userTakes(name);
  }
  for (const name of new Set(input.lock_fields ?? [])) {
    lockPart(content, name);
    userTakes(name);
  }
  const regenerate = [...new Set(input.regenerate ?? [])];
  for (const name of regenerate) if (!regenerating.includes(name)) regenerating.push(name);
  return { touched, regenerating, regenerate };
}

/** Clears the competitor, or sets a new one (or retries a failed comparison) and enqueues its crawl. */
async function writeCompetitor(t: Sql, row: DraftRow, competitor: CompetitorChange): Promise<void> {
  if (competitor === null) {
    await t`update drafts set competitor_url = null, comparison = null where id = ${row.id}`;
    await t`delete from draft_pages where draft_id = ${row.id} and kind = 'competitor'`;
  } else if (competitor !== undefined && (competitor.url !== row.competitor_url || row.comparison?.status === 'failed')) {
    const comparison = { status: 'crawling', url: competitor.url, name: null, points: [], failure_reason: null, failure_detail: null };
    await t`update drafts set competitor_url = ${competitor.url}, comparison = ${t.json(comparison as never)}::jsonb where id = ${row.id}`;
    await t`delete from draft_pages where draft_id = ${row.id} and kind = 'competitor'`;
    await enqueue(t, JOBS.crawl_competitor, { draft_id: row.id, url: competitor.url });
  }
}
