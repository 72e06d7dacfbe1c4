// Every bound on a draft and on the listing profile it becomes, in one place. The edge's TypeBox
// schemas (api/operations/drafts-schemas.ts), the drafters (pipeline/drafting) and the listing sync
// (listing-sync.ts) read these; the database's CHECK constraints (sql/migrations) state the same
// numbers, and test/bounds.test.ts fails when the schemas or the database disagree with this file.
// Spec: listing-directory-api.md sections 2 (Listing, Draft, FAQ, Founder, Socials, Founder story,
// Milestone) and 4 (update_draft body).
import type { DraftTextField } from './fields.ts';

// ---- the draft (update_draft) ----------------------------------------------------------------

/** Max length of each draft text field's value (spec: max 500 unless noted). */
export const TEXT_MAX: Record<DraftTextField, number> = {
  name: 500,
  tagline: 500,
  short_description: 500,
  description: 20000,
  stage: 500,
  pricing_model: 500,
  pricing_summary: 500,
  country: 500,
  city: 500,
  founded_year: 500,
  contact_email: 500,
  demo_video_url: 500,
  logo_url: 500,
};
/** List fields (draft and listing alike): max 20 items, each max 200 characters. */
export const LIST_MAX_ITEMS = 20;
export const LIST_ITEM_MAX = 200;

export const FAQ_MAX = 10;
export const FAQ_QUESTION_MAX = 300;
export const FAQ_ANSWER_MAX = 1500;
export const FOUNDERS_MAX = 6;
export const FOUNDER_NAME_MAX = 160;
export const FOUNDER_TITLE_MAX = 160;
export const FOUNDER_BIO_MAX = 3000;
/** A social link (company or founder). */
export const SOCIAL_URL_MAX = 500;
/** Each founder story section in update_draft (the title included). */
export const STORY_SECTION_MAX = 8000;
export const MILESTONES_MAX = 50;
export const MILESTONE_TITLE_MAX = 200;
export const MILESTONE_DESCRIPTION_MAX = 2000;
export const MILESTONE_URL_MAX = 500;
export const SEO_TITLE_MAX = 70;
export const SEO_META_MAX = 170;
/** update_draft's lock_fields, regenerate and restore: how many part names each takes. */
export const LOCK_FIELDS_MAX = 20;
export const REGENERATE_MAX = 5;
export const RESTORE_MAX = 20;
/** An e-mail address (RFC 5321 path limit): co-founder invites, a listing's contact e-mail. */
export const EMAIL_MAX = 254;

// ---- the listing a draft becomes (submit_draft, update_my_listing) ---------------------------

/**
 * The listing's text columns where they hold a draft field. Tighter than the draft's in places:
 * a value that does not fit is cut (or left out) when the draft becomes a listing, and an AI
 * value must fit here so that never happens to it.
 */
export const LISTING_TEXT_MAX = {
  name: 500,
  tagline: 200,
  short_description: 300,
  description: 20000,
  pricing_model: 40,
  pricing_summary: 300,
  city: 120,
  contact_email: EMAIL_MAX,
  demo_video_url: 500,
  logo_url: 500,
} as const satisfies Partial<Record<DraftTextField, number>>;
/** The listing's founder story title (set_founder_story); a longer draft title is cut. */
export const STORY_TITLE_MAX = 200;
/** A founded year, as the listing takes it. */
export const YEAR_MIN = 1800;
export const YEAR_MAX = 2100;

// ---- what the drafters write besides the profile -----------------------------------------------

export const COMPARISON_POINTS_MAX = 10;
export const COMPARISON_TOPIC_MAX = 80;
export const COMPARISON_VALUE_MAX = 500;
/** A quote longer than this is refused (not trimmed): the drafters quote paragraphs, not pages. */
export const QUOTE_MAX = 2000;
/** Quotes kept per value, after the check. */
export const EVIDENCE_MAX = 20;
