import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { Faq, ListingSummary, ListOf, Nullable, Paging, Slug } from '../registry/schemas.ts';
import { notFound } from '../../core/errors/index.ts';
import { categoryBySlug, categoryListingIds, categoryTree } from '../../sql/queries/categories.ts';
import { listingSummaries, pageInfo } from '../../sql/queries/summaries.ts';
import { categoriesExamples } from './categories-examples.ts';

const Count = Type.Integer({ minimum: 0, description: 'Live listings in this category or its subcategories; a listing counts once.' });
const DirectCount = Type.Integer({ minimum: 0, description: 'Live listings tagged with this category itself (primary or extra).' });

const CategoryCounted = {
  slug: Type.String(),
  name: Type.String(),
  description: Type.String(),
  count: Count,
  direct_count: DirectCount,
};
const Subcategory = Type.Object(CategoryCounted);
const TopCategory = Type.Object({ ...CategoryCounted, subcategories: Type.Array(Subcategory) });

const CategoryPage = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  description: Type.String(),
  count: Count,
  direct_count: DirectCount,
  faqs: Type.Array(Faq),
  attributes: Type.Array(Type.Object({ key: Type.String(), label: Type.String() }), {
    description: 'The facts compare_listings shows side by side for listings of this category.',
  }),
  parent: Nullable(Type.Object({ slug: Type.String(), name: Type.String() })),
  subcategories: Type.Array(Type.Object({ slug: Type.String(), name: Type.String(), count: Count })),
  listings: ListOf(ListingSummary),
});

export const categoriesOperations: Operation[] = [
  defineOperation({
    name: 'list_categories',
    examples: categoriesExamples.list_categories,
    method: 'GET',
    path: '/categories',
    tag: 'Categories',
    scope: null,
    summary: 'List the category tree',
    description:
      "Returns the category tree, two levels deep, with each category's slug, display name and live listing count. Filters and get_category take the slug; update_draft's categories take the slug or the name.",
    query: Type.Object(
      {
        include_empty: Type.Boolean({ default: true, description: 'Include categories with no live listings.' }),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ items: Type.Array(TopCategory) }),
    notes: [
      'Not paginated: `items` holds the whole tree (top-level categories, each with `subcategories`), ordered by position, then name.',
      '`count` is the number of live listings in the category or any of its subcategories, each listing counted once; `direct_count` counts only listings tagged with the category itself. Extra categories of paid listings count like the primary one.',
      'With include_empty=false, categories with no live listings are left out; a top-level category stays when any of its subcategories has listings.',
      'Counts are as of the last ranking refresh (about every minute), like every ranking and total: a listing that goes live or leaves is counted at the next one.',
    ].join('\n\n'),
    handler: async ({ include_empty }, { sql, site }) => ({ items: await categoryTree(sql, site.id, include_empty) }),
  }),

  defineOperation({
    name: 'get_category',
    examples: categoriesExamples.get_category,
    method: 'GET',
    path: '/categories/{slug}',
    tag: 'Categories',
    scope: null,
    summary: 'Get a category and its listings',
    description:
      'Returns one category by slug (description, FAQs, attributes, parent and subcategories) and a page of the live listings in it or its subcategories, most voted first. Take the slug from list_categories.',
    params: Type.Object({ slug: Slug('The category slug from list_categories, e.g. developer-tools.') }, { additionalProperties: false }),
    query: Type.Object({ ...Paging }, { additionalProperties: false }),
    notFoundParams: ['slug'],
    output: CategoryPage,
    notes: [
      '`listings` is paginated by page and per_page: live listings in the category or any of its subcategories (each once), ordered by community votes, then the latest launch.',
      'Membership, votes and counts are as of the last ranking refresh (about every minute); a listing no longer live is left out at once, while `total` and the counts follow at the next refresh.',
      '`parent` is null for a top-level category. `subcategories` lists every subcategory, empty ones too, with its live listing count.',
      'An unknown slug, or one that is not a valid slug, answers 404.',
    ].join('\n\n'),
    handler: async ({ slug, page, per_page }, { sql, site, config }) => {
      const category = await categoryBySlug(sql, site.id, slug);
      if (!category) throw notFound(`No category with slug "${slug}".`);
      const { total, ids } = await categoryListingIds(sql, site.id, category.id, page, per_page);
      const { id: _id, ...rest } = category;
      return {
        ...rest,
        listings: { items: await listingSummaries(sql, ids, config.siteUrl), ...pageInfo(page, per_page, total) },
      };
    },
  }),
];
