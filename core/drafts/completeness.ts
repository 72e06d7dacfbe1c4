// How complete a draft is, and what is still missing: every profile field plus having at least
// one FAQ, one founder and one company social link (the story, milestones and founder socials
// are optional, paid sections and do not count). The one definition: the edge recomputes it on
// every edit and the worker on every drafted write (both through core/drafts/store.ts).
import { DRAFT_FIELDS } from './fields.ts';
import { isEmptyValue, partValue, type DraftContent, type DraftPart } from './model.ts';

export const COMPLETENESS_PARTS: readonly DraftPart[] = [...DRAFT_FIELDS, 'faqs', 'founders', 'company_socials'];

/** completeness: share of parts holding a value as a whole percent (0..100); missing: the others, in that order. */
export function completenessOf(content: DraftContent): { completeness: number; missing: DraftPart[] } {
  const missing = COMPLETENESS_PARTS.filter((part) => isEmptyValue(partValue(content, part)));
  const filled = COMPLETENESS_PARTS.length - missing.length;
  return { completeness: Math.round((filled * 100) / COMPLETENESS_PARTS.length), missing };
}
