import type postgres from 'postgres';
import type { Sql } from '../db.ts';
import { offsetOf } from './summaries.ts';

export interface CategoryCount {
  slug: string;
  name: string;
  description: string;
  count: number;
  direct_count: number;
}
export interface CategoryTreeNode extends CategoryCount {
  subcategories: CategoryCount[];
}

type Fragment = postgres.Fragment;
const allCategories = (sql: Sql) => sql`select id from categories`;
/** A category and its subcategories, by id: what a category page counts and lists. */
const subtree = (sql: Sql, id: number) => sql`select id from categories where id = ${id} or parent_id = ${id}`;

/**
 * Per category in scope: direct_count (live listings tagged with it) and count (live listings in
 * it or in its subcategories, each listing once), from category_counts as of the last refresh.
 */
const countedCategories = (sql: Sql, siteId: number, scope: Fragment) => sql`
  node as (
    select c.id, c.parent_id, c.slug, c.name, c.description, c.position,
           coalesce(k.direct, 0) as direct_count, coalesce(k.listings, 0) as count
    from categories c
    left join category_counts k on k.site_id = ${siteId} and k.category_id = c.id
    where c.id in (${scope}))`;

/** The whole two-level tree, ordered by position then name; empty categories dropped unless asked for. */
export async function categoryTree(sql: Sql, siteId: number, includeEmpty: boolean): Promise<CategoryTreeNode[]> {
  return sql<CategoryTreeNode[]>`
    with ${countedCategories(sql, siteId, allCategories(sql))}
    select p.slug, p.name, p.description, p.count, p.direct_count,
           coalesce((select json_agg(json_build_object('slug', s.slug, 'name', s.name, 'description', s.description,
                                                       'count', s.count, 'direct_count', s.direct_count)
                                     order by s.position, s.name, s.slug)
                     from node s
                     where s.parent_id = p.id and (${includeEmpty} or s.count > 0)), '[]'::json) as subcategories
    from node p
    where p.parent_id is null and (${includeEmpty} or p.count > 0)
    order by p.position, p.name, p.slug`;
}

export interface CategoryDetail {
  id: number;
  slug: string;
  name: string;
  description: string;
  count: number;
  direct_count: number;
  faqs: { question: string; answer: string }[];
  attributes: { key: string; label: string }[];
  parent: { slug: string; name: string } | null;
  subcategories: { slug: string; name: string; count: number }[];
}

/** One category with its parent, its subcategories (empty ones too) and live counts; null when unknown. */
export async function categoryBySlug(sql: Sql, siteId: number, slug: string): Promise<CategoryDetail | null> {
  const [found] = await sql<{ id: number }[]>`select id from categories where slug = ${slug}`;
  if (!found) return null;
  const [row] = await sql<CategoryDetail[]>`
    with ${countedCategories(sql, siteId, subtree(sql, found.id))}
    select c.id, c.slug, c.name, c.description, c.count, c.direct_count,
           -- faqs and attributes are free jsonb; keep only well-formed entries, as strings
           coalesce((select json_agg(json_build_object('question', f->>'question', 'answer', f->>'answer') order by n)
                     from jsonb_array_elements(k.faqs) with ordinality as x(f, n)
                     where jsonb_typeof(f) = 'object' and f ? 'question' and f ? 'answer'), '[]'::json) as faqs,
           coalesce((select json_agg(json_build_object('key', a->>'key', 'label', coalesce(a->>'label', a->>'key')) order by n)
                     from jsonb_array_elements(k.attributes) with ordinality as x(a, n)
                     where jsonb_typeof(a) = 'object' and a ? 'key'), '[]'::json) as attributes,
           case when p.id is null then null else json_build_object('slug', p.slug, 'name', p.name) end as parent,
           coalesce((select json_agg(json_build_object('slug', s.slug, 'name', s.name, 'count', s.count)
                                     order by s.position, s.name, s.slug)
                     from node s where s.parent_id = c.id), '[]'::json) as subcategories
    from node c
    join categories k on k.id = c.id
    left join categories p on p.id = c.parent_id
    where c.id = ${found.id}`;
  return row ?? null;
}

/**
 * One page of the live listings in a category or its subcategories, most voted first (then the
 * latest launch, then id, so pages are stable), plus how many there are in all. category_members
 * holds each category's page in this order (as of the last refresh); a listing no longer live is
 * left out at once. The page's bounds are sub-selects, not bound values: a custom plan costs a bound
 * LIMIT exactly and a generic plan at a guess, so they never met and every call was planned anew;
 * the walk of category_members_page is the plan either way.
 */
export async function categoryListingIds(sql: Sql, siteId: number, categoryId: number, page: number, perPage: number) {
  const [row] = await sql<{ total: number; ids: number[] }[]>`
    select coalesce((select listings from category_counts where site_id = ${siteId} and category_id = ${categoryId}), 0) as total,
           array(select m.listing_id::int from category_members m
                 where m.site_id = ${siteId} and m.category_id = ${categoryId}
                   -- Still live, as a correlated check: estimated true for half the rows, it keeps the walk.
                   and (select ll.status = 'live' from listings ll where ll.id = m.listing_id)
                 order by m.votes desc, m.launched_at desc nulls last, m.listing_id
                 limit (select ${perPage}::int) offset (select ${offsetOf(page, perPage)}::int)) as ids`;
  return row;
}
