// The draft profile fields of spec section 2 ("Draft"), shared by the edge (update_draft
// validation, get_draft output) and the worker (drafters, evidence check). Their bounds are in
// bounds.ts.

export const DRAFT_TEXT_FIELDS = [
  'name',
  'tagline',
  'short_description',
  'description',
  'stage',
  'pricing_model',
  'pricing_summary',
  'country',
  'city',
  'founded_year',
  'contact_email',
  'demo_video_url',
  'logo_url',
] as const;
export const DRAFT_LIST_FIELDS = ['categories', 'tags', 'features', 'usps', 'keywords'] as const;
export const DRAFT_FIELDS = [...DRAFT_TEXT_FIELDS, ...DRAFT_LIST_FIELDS] as const;

export type DraftTextField = (typeof DRAFT_TEXT_FIELDS)[number];
export type DraftListField = (typeof DRAFT_LIST_FIELDS)[number];
export type DraftFieldName = (typeof DRAFT_FIELDS)[number];

export const isListField = (f: string): f is DraftListField => (DRAFT_LIST_FIELDS as readonly string[]).includes(f);
export const isDraftField = (f: string): f is DraftFieldName => (DRAFT_FIELDS as readonly string[]).includes(f);

/** Spec section 3, "Draft field state". */
export const FIELD_STATES = ['ai', 'not_found', 'edited', 'manual', 'override', 'deleted'] as const;
export type FieldState = (typeof FIELD_STATES)[number];

export const SOCIAL_PLATFORMS = [
  'linkedin',
  'x',
  'facebook',
  'instagram',
  'tiktok',
  'youtube',
  'threads',
  'pinterest',
  'github',
  'reddit',
  'producthunt',
  'medium',
  'website',
  'custom',
] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

export const STORY_SECTIONS = ['title', 'story', 'why_started', 'problem', 'journey', 'challenges', 'achievements', 'lessons', 'whats_next'] as const;
export type StorySection = (typeof STORY_SECTIONS)[number];

/** A quote from a crawled page, word for word, with the page it is on. */
export interface Evidence {
  quote: string;
  url: string;
}
