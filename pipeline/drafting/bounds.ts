// Bounds an AI proposal must fit. Draft bounds are the spec's (section 2, update_draft); where
// the listing that submit_draft makes is tighter (tagline 200, city 120, ...), an AI value
// obeys the listing's bound so turning the draft into a listing never fails on an AI value.
import { LIST_ITEM_MAX, LIST_MAX_ITEMS, TEXT_MAX, type DraftTextField } from '../../core/drafts/fields.ts';

export { LIST_ITEM_MAX, LIST_MAX_ITEMS };

export const AI_TEXT_MAX: Record<DraftTextField, number> = {
  ...TEXT_MAX,
  tagline: 200,
  short_description: 300,
  pricing_model: 40,
  pricing_summary: 300,
  country: 2,
  city: 120,
  founded_year: 4,
  contact_email: 254,
};

/** Long-form fields are cut at a word boundary when too long; other fields are dropped. */
export const TRUNCATED_FIELDS = new Set<DraftTextField>(['tagline', 'short_description', 'description', 'pricing_summary']);

export const FAQ_MAX = 10;
export const FAQ_QUESTION_MAX = 300;
export const FAQ_ANSWER_MAX = 1500;
export const FOUNDERS_MAX = 6;
export const FOUNDER_NAME_MAX = 160;
export const FOUNDER_TITLE_MAX = 160;
export const FOUNDER_BIO_MAX = 3000;
export const SOCIAL_URL_MAX = 500;
export const STORY_SECTION_MAX = 8000;
export const STORY_TITLE_MAX = 200;
export const MILESTONES_MAX = 50;
export const MILESTONE_TITLE_MAX = 200;
export const MILESTONE_DESCRIPTION_MAX = 2000;
export const MILESTONE_URL_MAX = 500;
export const COMPARISON_POINTS_MAX = 10;
export const COMPARISON_TOPIC_MAX = 80;
export const COMPARISON_VALUE_MAX = 500;

/** A quote longer than this is refused (not trimmed): the drafters quote paragraphs, not pages. */
export const QUOTE_MAX = 2000;
/** Quotes kept per value, after the check. */
export const EVIDENCE_MAX = 20;
/** Founded years outside this range are no founding year. */
export const YEAR_MIN = 1800;
