import { Type, type TSchema } from '@sinclair/typebox';
import { FAQ_ANSWER_MAX, FAQ_QUESTION_MAX } from '../../core/drafts/bounds.ts';

// Shared input and output schemas; each operation file keeps its own specific ones.
export const Slug = (description = 'A slug: lower-case letters, digits and hyphens.') =>
  Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,219}$', maxLength: 220, description });
export const CountryCode = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 country code, any case, e.g. DE.' });
export const Page = Type.Integer({ minimum: 1, maximum: 1000, default: 1, description: 'Page number.' });
export const PerPage = Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Entries per page.' });
export const Paging = { page: Page, per_page: PerPage };

export const PageInfo = {
  page: Type.Integer(),
  per_page: Type.Integer(),
  total: Type.Integer({ description: 'Entries across all pages.' }),
  has_more: Type.Boolean(),
};
export const ListOf = (item: TSchema, extra: Record<string, TSchema> = {}) => Type.Object({ items: Type.Array(item), ...PageInfo, ...extra });

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const Faq = Type.Object({ question: Type.String({ maxLength: FAQ_QUESTION_MAX }), answer: Type.String({ maxLength: FAQ_ANSWER_MAX }) });

/** What every entry of a listing list carries. */
export const ListingSummary = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  name: Type.String(),
  url: Type.String({ description: 'The product website.' }),
  profile_url: Type.String({ description: 'The listing page on this site.' }),
  tagline: Nullable(Type.String()),
  logo_url: Nullable(Type.String()),
  status: Type.String(),
  plan: Type.String(),
  category: Nullable(Type.Object({ slug: Type.String(), name: Type.String() })),
  pricing_model: Nullable(Type.String()),
  country: Nullable(Type.String()),
  launch_week: Nullable(Type.String({ format: 'date' })),
  launched_at: Nullable(Type.String({ format: 'date-time' })),
  votes: Type.Integer(),
  follows: Type.Integer(),
  views: Type.Integer(),
});
