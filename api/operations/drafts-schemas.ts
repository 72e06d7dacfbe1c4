// The TypeBox schemas of the draft operations (api/operations/drafts.ts): what they accept and answer.
import { Type, type TSchema } from '@sinclair/typebox';
import { Nullable } from '../registry/schemas.ts';
import {
  EMAIL_MAX,
  FAQ_ANSWER_MAX,
  FAQ_MAX,
  FAQ_QUESTION_MAX,
  FOUNDER_BIO_MAX,
  FOUNDER_NAME_MAX,
  FOUNDER_TITLE_MAX,
  FOUNDERS_MAX,
  LIST_ITEM_MAX,
  LIST_MAX_ITEMS,
  LOCK_FIELDS_MAX,
  MILESTONE_DESCRIPTION_MAX,
  MILESTONE_TITLE_MAX,
  MILESTONE_URL_MAX,
  MILESTONES_MAX,
  REGENERATE_MAX,
  RESTORE_MAX,
  SEO_META_MAX,
  SEO_TITLE_MAX,
  SOCIAL_URL_MAX,
  STORY_SECTION_MAX,
  TEXT_MAX,
} from '../../core/drafts/bounds.ts';
import { DRAFT_LIST_FIELDS, DRAFT_TEXT_FIELDS, FIELD_STATES, SOCIAL_PLATFORMS, STORY_SECTIONS } from '../../core/drafts/fields.ts';
import { DRAFT_PARTS, DRAFT_SECTIONS } from '../../core/drafts/model.ts';
import { URL_MAX } from '../../core/drafts/submitted-url.ts';
import { EMAIL_PATTERN, emailPattern, HTTPS_RULE, socialDescription, socialRule, urlPattern, VIDEO_HOSTS, VIDEO_RULE } from '../../core/validation/urls.ts';

const Iso = Type.String({ format: 'date-time' });
const Uuid = Type.String({
  format: 'uuid',
  description: 'The draft id (a UUID) from submit_listing or list_my_drafts, e.g. 0b6f2f5e-8a4c-4d0e-9a57-3c1d2e4f5a6b.',
});
export const IdPath = Type.Object({ id: Uuid }, { additionalProperties: false });

// ---- input ---------------------------------------------------------------------------------

const PartName = Type.Union(
  DRAFT_PARTS.map((p) => Type.Literal(p)),
  {
    description: `A profile field (${DRAFT_TEXT_FIELDS.join(', ')}, ${DRAFT_LIST_FIELDS.join(', ')}) or a section (${DRAFT_SECTIONS.join(', ')}).`,
  },
);

const fieldInputs: Record<string, TSchema> = {};
for (const f of DRAFT_TEXT_FIELDS) fieldInputs[f] = Type.Optional(Nullable(Type.String({ maxLength: TEXT_MAX[f] })));
// Typed fields: a blank value still deletes the field, anything else must be what the field is.
fieldInputs.logo_url = Type.Optional(
  Nullable(Type.String({ maxLength: TEXT_MAX.logo_url, pattern: urlPattern({}, { blank: true }), description: 'An absolute http(s) URL of the logo image.' })),
);
fieldInputs.demo_video_url = Type.Optional(
  Nullable(
    Type.String({
      maxLength: TEXT_MAX.demo_video_url,
      pattern: urlPattern(VIDEO_RULE, { blank: true }),
      description: `An absolute http(s) URL on a video host (${VIDEO_HOSTS.join(', ')} or a subdomain).`,
    }),
  ),
);
fieldInputs.contact_email = Type.Optional(
  Nullable(Type.String({ maxLength: TEXT_MAX.contact_email, pattern: emailPattern({ blank: true }), description: 'An e-mail address.' })),
);
for (const f of DRAFT_LIST_FIELDS) {
  fieldInputs[f] = Type.Optional(Nullable(Type.Array(Type.String({ maxLength: LIST_ITEM_MAX }), { maxItems: LIST_MAX_ITEMS })));
}
fieldInputs.categories = Type.Optional(
  Nullable(
    Type.Array(Type.String({ maxLength: LIST_ITEM_MAX }), {
      maxItems: LIST_MAX_ITEMS,
      description: 'Names or slugs from list_categories, e.g. ["Developer Tools"] or ["developer-tools"]; the first is primary.',
    }),
  ),
);
const FieldsInput = Type.Object(fieldInputs, {
  additionalProperties: false,
  description:
    'Profile fields to set, e.g. {"founded_year": "2021", "categories": ["developer-tools"]}; null or "" deletes a field. A value marks the field the user\'s own (edited or manual), and fields not sent stay as they are.',
});

const Faq = Type.Object(
  { question: Type.String({ minLength: 1, maxLength: FAQ_QUESTION_MAX }), answer: Type.String({ minLength: 1, maxLength: FAQ_ANSWER_MAX }) },
  { additionalProperties: false },
);
const Founder = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: FOUNDER_NAME_MAX }),
    title: Type.Optional(Nullable(Type.String({ maxLength: FOUNDER_TITLE_MAX, description: 'The role.' }))),
    bio: Type.Optional(Nullable(Type.String({ maxLength: FOUNDER_BIO_MAX }))),
  },
  { additionalProperties: false },
);
const Socials = Type.Object(
  Object.fromEntries(
    SOCIAL_PLATFORMS.map((p) => [
      p,
      Type.Optional(Type.String({ maxLength: SOCIAL_URL_MAX, pattern: urlPattern(socialRule(p), { blank: true }), description: socialDescription(p) })),
    ]),
  ),
  {
    additionalProperties: false,
    description: `Links by platform, e.g. {"x": "https://x.com/lumennotes"}: an absolute http(s) URL on the platform's host (${SOCIAL_PLATFORMS.join(', ')}). Replaces all links; an empty string or a platform left out removes it.`,
  },
);
const Story = Type.Object(Object.fromEntries(STORY_SECTIONS.map((s) => [s, Type.Optional(Type.String({ maxLength: STORY_SECTION_MAX }))])), {
  additionalProperties: false,
  description: `Founder story sections (${STORY_SECTIONS.join(', ')}), each max ${STORY_SECTION_MAX}. Replaces the whole story.`,
});
const Milestone = Type.Object(
  {
    date: Type.String({ format: 'date', description: 'The day (YYYY-MM-DD), e.g. 2025-03-01.' }),
    title: Type.String({ minLength: 1, maxLength: MILESTONE_TITLE_MAX }),
    description: Type.Optional(Nullable(Type.String({ maxLength: MILESTONE_DESCRIPTION_MAX }))),
    url: Type.Optional(
      Nullable(
        Type.String({
          maxLength: MILESTONE_URL_MAX,
          pattern: urlPattern(HTTPS_RULE, { blank: true }),
          description: 'An absolute https link, e.g. https://lumennotes.example/blog/v2.',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const SubmitListingBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: URL_MAX,
      description: "The product's public website, e.g. https://lumennotes.example (a bare domain means its https site).",
    }),
  },
  { additionalProperties: false },
);

export const InviteBody = Type.Object(
  { email: Type.String({ pattern: EMAIL_PATTERN, maxLength: EMAIL_MAX, description: "The co-founder's e-mail address, e.g. maya@lumennotes.example." }) },
  { additionalProperties: false },
);

export const UpdateBody = Type.Object(
  {
    fields: Type.Optional(FieldsInput),
    lock_fields: Type.Optional(Type.Array(PartName, { maxItems: LOCK_FIELDS_MAX, description: 'Lock these against AI redrafts (state override).' })),
    regenerate: Type.Optional(
      Type.Array(PartName, {
        maxItems: REGENERATE_MAX,
        description: 'Redraft these from the stored crawl (a job; they are listed in `regenerating` until done).',
      }),
    ),
    restore: Type.Optional(Type.Array(PartName, { maxItems: RESTORE_MAX, description: "Bring back the AI's value and evidence." })),
    faqs: Type.Optional(Type.Array(Faq, { maxItems: FAQ_MAX, description: 'Replaces all FAQs.' })),
    company_socials: Type.Optional(Socials),
    founder_socials: Type.Optional(Socials),
    founders: Type.Optional(Type.Array(Founder, { maxItems: FOUNDERS_MAX, description: 'Replaces the list; the first is the primary founder.' })),
    story: Type.Optional(Story),
    milestones: Type.Optional(Type.Array(Milestone, { maxItems: MILESTONES_MAX, description: 'Replaces all milestones.' })),
    competitor_url: Type.Optional(
      Type.String({
        maxLength: URL_MAX,
        description: "A competitor's public website to read and compare with, e.g. https://www.notion.so; an empty string clears it.",
      }),
    ),
    seo: Type.Optional(
      Type.Object(
        {
          title: Type.Optional(Type.String({ maxLength: SEO_TITLE_MAX })),
          meta: Type.Optional(Type.String({ maxLength: SEO_META_MAX })),
        },
        { additionalProperties: false, description: 'Replaces the SEO title and meta description; a key left out or empty clears it.' },
      ),
    ),
  },
  { additionalProperties: false },
);

// ---- output --------------------------------------------------------------------------------

const Evidence = Type.Object({
  quote: Type.String({ description: 'Words quoted exactly from the visible text of the page.' }),
  url: Type.String({ description: 'The crawled page the quote is on.' }),
});
const Evidences = Type.Array(Evidence);
const State = Nullable(
  Type.Union(
    FIELD_STATES.map((s) => Type.Literal(s)),
    {
      description:
        'ai: drafted from the website; not_found: the website does not state it; edited: the user changed an AI value; manual: the user filled an empty field; override: locked against AI redrafts; deleted: removed by the user. null: not drafted yet.',
    },
  ),
);
const FieldOut = Type.Object({
  value: Nullable(Type.Union([Type.String(), Type.Array(Type.String())])),
  state: State,
  evidence: Evidences,
});
const MapSection = Type.Object({
  state: State,
  value: Type.Record(Type.String(), Type.String()),
  evidence: Type.Record(Type.String(), Evidences, { description: 'Quotes per key of value.' }),
});
const Failure = Type.Object({ reason: Type.String(), detail: Type.String() });

export const Draft = Type.Object({
  id: Type.String({ format: 'uuid' }),
  url: Type.String({ description: 'The submitted website, normalised.' }),
  domain: Type.String(),
  status: Type.Union([Type.Literal('crawling'), Type.Literal('drafting'), Type.Literal('ready'), Type.Literal('failed')], {
    description: 'crawling, drafting, ready; failed (ours) when the site cannot be read or drafted, with the reason in failure.',
  }),
  failure: Nullable(
    Type.Object({
      reason: Type.String({
        description:
          'robots_disallowed, robots_unavailable, unreachable, refused_address, not_html, too_large, http_error, off_site, drafting_failed, timed_out.',
      }),
      detail: Type.String(),
    }),
  ),
  fields: Type.Object({
    ...Object.fromEntries([...DRAFT_TEXT_FIELDS, ...DRAFT_LIST_FIELDS].map((f) => [f, FieldOut])),
    // The spec gives categories as names; the slugs sit beside them so an answer names both.
    categories: Type.Object({
      value: Nullable(Type.Array(Type.String(), { description: 'Category names as list_categories spells them, the primary first.' })),
      slugs: Type.Array(Nullable(Type.String()), {
        description: 'The slug of each name in value, in the same order (null where that category was since removed).',
      }),
      state: State,
      evidence: Evidences,
    }),
    founded_year: Type.Object(
      { value: Nullable(Type.String()), state: State, evidence: Evidences },
      { description: 'A four-digit year as a string, e.g. "2019", as the API contract types the draft field; the listing stores the year as an integer.' },
    ),
  }),
  faqs: Type.Object({ state: State, value: Type.Array(Type.Object({ question: Type.String(), answer: Type.String(), evidence: Evidences })) }),
  founders: Type.Object({
    state: State,
    value: Type.Array(
      Type.Object({
        name: Type.String(),
        title: Nullable(Type.String()),
        bio: Nullable(Type.String()),
        evidence: Evidences,
        invited: Type.Boolean({ description: 'Added by the co-founder through an invite link.' }),
      }),
    ),
  }),
  company_socials: MapSection,
  founder_socials: MapSection,
  story: MapSection,
  milestones: Type.Object({
    state: State,
    value: Type.Array(
      Type.Object({
        date: Type.String({ format: 'date' }),
        title: Type.String(),
        description: Nullable(Type.String()),
        url: Nullable(Type.String()),
        evidence: Evidences,
      }),
    ),
  }),
  seo: Type.Object({ title: Nullable(Type.String()), meta: Nullable(Type.String()) }),
  competitor_url: Nullable(Type.String()),
  comparison: Nullable(
    Type.Object({
      status: Type.Union([Type.Literal('crawling'), Type.Literal('comparing'), Type.Literal('ready'), Type.Literal('failed')]),
      competitor: Type.Object({ url: Type.String(), name: Nullable(Type.String()) }),
      points: Type.Array(
        Type.Object({
          topic: Type.String(),
          product: Nullable(Type.String()),
          competitor: Nullable(Type.String()),
          evidence: Type.Array(Evidence, { description: 'Quotes from either site; each value is backed by quotes from its own site.' }),
        }),
      ),
      failure: Nullable(Failure),
    }),
  ),
  regenerating: Type.Array(Type.String(), { description: 'Parts an AI redraft is working on.' }),
  regenerate_error: Nullable(Type.String({ description: 'Why the last redraft failed, if it did.' })),
  completeness: Type.Integer({ minimum: 0, maximum: 100, description: 'Percent of the profile fields, FAQs, founders and company socials holding a value.' }),
  missing: Type.Array(Type.String(), { description: 'Those of them without a value.' }),
  crawl: Type.Object({
    pages: Type.Array(Type.Object({ url: Type.String(), title: Nullable(Type.String()) }), { description: 'The pages read (the evidence comes from these).' }),
    skipped: Type.Array(Type.Object({ url: Type.String(), reason: Type.String() }), {
      description: 'Links not read and why (robots_disallowed, off_site, page_cap, ...).',
    }),
  }),
  invites: Type.Array(
    Type.Object({
      id: Type.Integer(),
      email: Type.String(),
      status: Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('expired')]),
      created_at: Iso,
      expires_at: Iso,
    }),
  ),
  listing_id: Nullable(Type.Integer({ minimum: 1, description: 'The listing submit_draft made.' })),
  submitted_at: Nullable(Iso),
  drafted_at: Nullable(Iso),
  created_at: Iso,
  updated_at: Iso,
});

export const DraftSummary = Type.Object({
  id: Type.String({ format: 'uuid' }),
  url: Type.String(),
  domain: Type.String(),
  name: Nullable(Type.String()),
  status: Type.String(),
  completeness: Type.Integer({ minimum: 0, maximum: 100 }),
  listing_id: Nullable(Type.Integer()),
  created_at: Iso,
  updated_at: Iso,
});

export const SubmittedListing = Type.Object({
  listing_id: Type.Integer({ minimum: 1 }),
  draft_id: Type.String({ format: 'uuid' }),
  created: Type.Boolean({ description: 'true when this call made the listing; false when it updated the one made before.' }),
  slug: Type.String(),
  name: Type.String(),
  url: Type.String(),
  status: Type.String({ description: 'draft until published (choose_free_listing or a paid launch).' }),
  plan: Type.String(),
  categories: Type.Array(Type.String(), { description: 'Category names, the primary first.' }),
  category_slugs: Type.Array(Type.String(), { description: 'The same categories by slug, in the same order.' }),
  not_found_on_website: Type.Array(Type.String()),
  adjusted: Type.Array(Type.Object({ field: Type.String(), note: Type.String() }), {
    description: "Draft values the listing's own rules made the service cut or leave out.",
  }),
  submitted_at: Iso,
});

export const Invite = Type.Object({
  id: Type.Integer(),
  draft_id: Type.String({ format: 'uuid' }),
  email: Type.String(),
  status: Type.Literal('pending'),
  created_at: Iso,
  expires_at: Iso,
});
