// The TypeBox schemas of the owner's listing operations (api/operations/my-listings.ts).
import { Type, type TSchema } from '@sinclair/typebox';
import { Nullable } from '../registry/schemas.ts';
import {
  APPLY_TO_MAX,
  FAQS_MAX,
  FOUNDED_YEAR,
  LIST_FIELDS,
  LIST_ITEM_MAX,
  LIST_MAX_ITEMS,
  SOCIAL_URL_MAX,
  TEXT_FIELDS,
  TRAVELLING_FIELDS,
} from '../../core/listings/editable.ts';
import { SOCIAL_PLATFORMS } from '../../core/drafts/fields.ts';
import { EMAIL_PATTERN, socialDescription, socialRule, urlPattern, VIDEO_HOSTS, VIDEO_RULE } from '../../core/validation/urls.ts';

const Iso = Type.String({ format: 'date-time' });
export const ListingIdPath = Type.Object(
  {
    listing_id: Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991, description: "Your listing's id from list_my_listings or submit_draft, e.g. 371." }),
  },
  { additionalProperties: false },
);

const emptyOr = (s: TSchema, description: string) => Type.Union([Type.Literal(''), s], { description });
const fieldInputs: Record<string, TSchema> = {};
for (const [f, max] of Object.entries(TEXT_FIELDS)) fieldInputs[f] = Type.Optional(Type.String({ maxLength: max }));
fieldInputs.country = Type.Optional(
  Type.String({ maxLength: 2, pattern: '^([A-Za-z]{2})?$', description: 'ISO 3166-1 alpha-2 code, any case (stored upper case); empty clears.' }),
);
fieldInputs.demo_video_url = Type.Optional(
  emptyOr(
    Type.String({ maxLength: 500, pattern: urlPattern(VIDEO_RULE) }),
    `An absolute http(s) URL on a video host (${VIDEO_HOSTS.join(', ')} or a subdomain), max 500; empty clears.`,
  ),
);
fieldInputs.contact_email = Type.Optional(emptyOr(Type.String({ maxLength: 254, pattern: EMAIL_PATTERN }), 'An e-mail address (max 254); empty clears.'));
for (const f of LIST_FIELDS) fieldInputs[f] = Type.Optional(Type.Array(Type.String({ maxLength: LIST_ITEM_MAX }), { maxItems: LIST_MAX_ITEMS }));
fieldInputs.founded_year = Type.Optional(Nullable(Type.Integer({ minimum: FOUNDED_YEAR.min, maximum: FOUNDED_YEAR.max })));

const Fields = Type.Object(fieldInputs, {
  additionalProperties: false,
  description:
    'The company fields to change, e.g. {"tagline": "Notes that link themselves"}; those not sent stay as they are. An empty string clears a text field, founded_year null clears it.',
});
const Faq = Type.Object(
  { question: Type.String({ minLength: 1, maxLength: 300 }), answer: Type.String({ minLength: 1, maxLength: 1500 }) },
  { additionalProperties: false },
);
const socialUrl = (p: string) =>
  emptyOr(Type.String({ maxLength: SOCIAL_URL_MAX, pattern: urlPattern(socialRule(p)) }), `${socialDescription(p)} Max 500; empty removes the platform.`);
const Socials = Type.Object(Object.fromEntries(SOCIAL_PLATFORMS.map((p) => [p, Type.Optional(socialUrl(p))])), {
  additionalProperties: false,
  description: `Links by platform, e.g. {"x": "https://x.com/relaydesk"}; replaces all links (${SOCIAL_PLATFORMS.join(', ')}).`,
});

export const UpdateListingBody = Type.Object(
  {
    fields: Type.Optional(Fields),
    apply_to: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 40 }), {
        maxItems: APPLY_TO_MAX,
        description: `Site keys, or ["all"], e.g. ["all"]: the ${TRAVELLING_FIELDS.join(', ')} sent also go to the company's listings there.`,
      }),
    ),
    socials: Type.Optional(Socials),
    faqs: Type.Optional(Type.Array(Faq, { maxItems: FAQS_MAX, description: 'Replaces all FAQs.' })),
  },
  { additionalProperties: false },
);

const NextStep = Type.Object({
  action: Type.Union(['choose_launch', 'place_badge', 'keep_badge', 'none'].map((a) => Type.Literal(a))),
  message: Type.String(),
});
const BadgeToPlace = Type.Object({
  kind: Type.Literal('listed'),
  html: Type.String({ description: 'Embed code to paste into the homepage (any shape from get_badges works as well).' }),
  image_url: Type.String(),
  link_url: Type.String({ description: 'The profile the badge must link to.' }),
});

const common = {
  id: Type.Integer({ minimum: 1 }),
  slug: Type.String(),
  name: Type.String(),
  url: Type.String(),
  domain: Type.String(),
  profile_url: Type.String(),
  status: Type.String({ description: 'draft, awaiting_badge, scheduled, live.' }),
  status_reason: Nullable(Type.String({ description: 'Why the listing is in this status (see the operation notes).' })),
  status_detail: Nullable(Type.String()),
  status_changed_at: Nullable(Iso),
  plan: Type.String({ description: 'free or paid.' }),
  launch_week: Nullable(Type.String({ format: 'date' })),
  launched_at: Nullable(Iso),
  free_queued_at: Nullable(Iso),
  badge_checked_at: Nullable(Iso),
  badge_seen_at: Nullable(Iso),
  unlocked_sections: Type.Array(Type.String(), { description: 'Paid sections shown publicly: story, milestones, media.' }),
  categories: Type.Array(Type.String(), { description: 'Category names, the primary first.' }),
  category_slugs: Type.Array(Type.String(), { description: 'The same categories by slug, in the same order.' }),
  submitted: Type.Boolean({ description: 'Saved by submit_draft (free launches need it).' }),
  created_at: Iso,
  updated_at: Iso,
  next_step: NextStep,
};

export const MyListingSummary = Type.Object(common);
export const MyListing = Type.Object({
  ...common,
  fields: Type.Record(Type.String(), Type.Unknown(), { description: 'Every editable company field and its value.' }),
  socials: Type.Record(Type.String(), Type.String()),
  faqs: Type.Array(Type.Object({ question: Type.String(), answer: Type.String() })),
  proposed_changes: Type.Array(
    Type.Object({
      field: Type.String(),
      value: Type.Unknown({ description: 'The value the website states now, in the form update_my_listing takes.' }),
      evidence: Type.Array(Type.Object({ quote: Type.String(), url: Type.String() })),
      found_at: Iso,
    }),
    {
      description:
        'New values the last re-crawl of your website found for fields you edited, locked or wrote (never written over). Accept one by sending its value with update_my_listing; sending the field at all settles it.',
    },
  ),
  vanished: Type.Array(
    Type.Object({ field: Type.String(), value: Type.Unknown({ description: 'The value (or list items) kept on the listing.' }), found_at: Iso }),
    {
      description: 'Facts on your listing the last re-crawl no longer found on your website: kept, flagged for you to check.',
    },
  ),
  badge: Nullable(BadgeToPlace),
});
export const UpdatedListing = Type.Object({
  ...MyListing.properties,
  version_id: Nullable(Type.Integer({ description: 'The version this edit recorded; null when nothing changed.' })),
  applied_to: Type.Array(Type.Object({ site: Type.String(), listing_id: Type.Integer(), fields: Type.Array(Type.String()) }), {
    description: "The company's listings on other sites apply_to wrote to.",
  }),
});
