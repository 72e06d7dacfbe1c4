// The editable company fields of update_my_listing (spec section 2) and their bounds, in one place:
// the edge's schema, the domain and the version history all read this table.

export const TEXT_FIELDS = {
  tagline: 200,
  short_description: 300,
  description: 20000,
  pricing_model: 40,
  pricing_summary: 300,
  country: 2,
  city: 120,
  demo_video_url: 500,
  contact_email: 254,
  headline: 200,
  summary: 20000,
  seo_title: 200,
  seo_description: 320,
} as const;
export const LIST_FIELDS = ['features', 'usps', 'keywords'] as const;
export const LIST_MAX_ITEMS = 20;
export const LIST_ITEM_MAX = 200;
export const FOUNDED_YEAR = { min: 1800, max: 2100 } as const;

export type TextField = keyof typeof TEXT_FIELDS;
export type ListField = (typeof LIST_FIELDS)[number];
export type EditableField = TextField | ListField | 'founded_year';
export const EDITABLE_FIELDS: EditableField[] = [...(Object.keys(TEXT_FIELDS) as TextField[]), ...LIST_FIELDS, 'founded_year'];

/** The fields apply_to carries to the company's listings on other sites of the network. */
export const TRAVELLING_FIELDS = ['headline', 'summary', 'seo_title', 'seo_description'] as const;

export const FAQS_MAX = 10;
export const SOCIAL_URL_MAX = 500;
export const APPLY_TO_MAX = 60;
// URL and e-mail rules: core/validation/urls.ts.
