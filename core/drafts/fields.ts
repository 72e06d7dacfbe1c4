// The draft profile fields of spec section 2 ("Draft"), with their bounds, shared by the edge
// (update_draft validation, get_draft output) and the worker (drafters, evidence check).

export const DRAFT_TEXT_FIELDS = [
  'name', 'tagline', 'short_description', 'description', 'stage', 'pricing_model', 'pricing_summary',
  'country', 'city', 'founded_year', 'contact_email', 'demo_video_url', 'logo_url',
] as const;
export const DRAFT_LIST_FIELDS = ['categories', 'tags', 'features', 'usps', 'keywords'] as const;
export const DRAFT_FIELDS = [...DRAFT_TEXT_FIELDS, ...DRAFT_LIST_FIELDS] as const;

export type DraftTextField = (typeof DRAFT_TEXT_FIELDS)[number];
export type DraftListField = (typeof DRAFT_LIST_FIELDS)[number];
export type DraftFieldName = (typeof DRAFT_FIELDS)[number];

/** Max length of each text field's value (spec: max 500 unless noted). */
export const TEXT_MAX: Record<DraftTextField, number> = {
  name: 500, tagline: 500, short_description: 500, description: 20000, stage: 500, pricing_model: 500,
  pricing_summary: 500, country: 500, city: 500, founded_year: 500, contact_email: 500, demo_video_url: 500, logo_url: 500,
};
/** List fields: max 20 items, each max 200 characters. */
export const LIST_MAX_ITEMS = 20;
export const LIST_ITEM_MAX = 200;

export const isListField = (f: string): f is DraftListField => (DRAFT_LIST_FIELDS as readonly string[]).includes(f);
export const isDraftField = (f: string): f is DraftFieldName => (DRAFT_FIELDS as readonly string[]).includes(f);

/** Spec section 3, "Draft field state". */
export const FIELD_STATES = ['ai', 'not_found', 'edited', 'manual', 'override', 'deleted'] as const;
export type FieldState = (typeof FIELD_STATES)[number];

export const SOCIAL_PLATFORMS = [
  'linkedin', 'x', 'facebook', 'instagram', 'tiktok', 'youtube', 'threads', 'pinterest', 'github', 'reddit',
  'producthunt', 'medium', 'website', 'custom',
] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

export const STORY_SECTIONS = [
  'title', 'story', 'why_started', 'problem', 'journey', 'challenges', 'achievements', 'lessons', 'whats_next',
] as const;
export type StorySection = (typeof STORY_SECTIONS)[number];

/** A quote from a crawled page, word for word, with the page it is on. */
export interface Evidence { quote: string; url: string }
