// The bounds an AI proposal must fit, derived from core/drafts/bounds.ts (the one bounds module).
// Draft bounds are the spec's (section 2, update_draft); where the listing that submit_draft makes
// is tighter (tagline 200, city 120, ...), an AI value obeys the listing's bound so turning the
// draft into a listing never fails on an AI value.
import { LISTING_TEXT_MAX, TEXT_MAX } from '../../core/drafts/bounds.ts';
import type { DraftTextField } from '../../core/drafts/fields.ts';

export const AI_TEXT_MAX: Record<DraftTextField, number> = {
  ...TEXT_MAX,
  ...LISTING_TEXT_MAX,
  country: 2, // an ISO code
  founded_year: 4, // a year
};

/** Long-form fields are cut at a word boundary when too long; other fields are dropped. */
export const TRUNCATED_FIELDS = new Set<DraftTextField>(['tagline', 'short_description', 'description', 'pricing_summary']);
