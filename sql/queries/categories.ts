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
 * (listing, category) pairs of this site's live listings, for the categories in scope.
 * listing_categories holds the primary and the extra categories; the primary_category_id column
 * is unioned in so a listing whose join row is missing still counts. The union removes duplicates.
 */
const liveMembership = (sql: Sql, siteId: number, scope: Fragment) => sql`
  select lc.listing_id, lc.category_id
  from listing_categories lc join listings l on l.id = lc.listing_id
  where l.site_id = ${siteId} and l.status = 'live' and lc.category_id in (${scope})
  union
  select l.id, l.primary_category_id
  from listings l
  where l.site_id = ${siteId} and l.status = 'live' and l.primary_category_id in (${scope})`;

/**
 * Per category: direct_count (live listings tagged with it) and count (live listings in it or in
 * its subcategories, each listing once). A subcategory has no children, so its two counts agree.
 */
const countedCategories = (sql: Sql, siteId: number, scope: Fragment) => sql`
  members as (${liveMembership(sql, siteId, scope)}),
  direct as (select category_id as id, count(*)::int as n from members group by category_id),
  rolled as (
    select coalesce(c.parent_id, c.id) as id, count(distinct m.listing_id)::int as n
    from members m join categories c on c.id = m.category_id
    group by 1),
  node as (
    select c.id, c.parent_id, c.slug, c.name, c.description, c.position,
           coalesce(d.n, 0) as direct_count,
           case when c.parent_id is null then coalesce(r.n, 0) else coalesce(d.n, 0) end as count
    from categories c
    left join direct d on d.id = c.id
    left join rolled r on r.id = c.id
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
 * latest launch, then id, so pages are stable), plus how many there are in all.
 */
export async function categoryListingIds(sql: Sql, siteId: number, categoryId: number, page: number, perPage: number) {
  const [row] = await sql<{ total: number; ids: number[] }[]>`
    with inside as (select distinct m.listing_id from (${liveMembership(sql, siteId, subtree(sql, categoryId))}) m),
    ranked as (
      select i.listing_id,
             row_number() over (order by coalesce(s.votes, 0) desc, l.launched_at desc nulls last, l.id) as ord
      from inside i
      join listings l on l.id = i.listing_id
      left join listing_stats s on s.listing_id = i.listing_id)
    select (select count(*)::int from inside) as total,
           coalesce((select array_agg(r.listing_id::int order by r.ord)
                     from (select * from ranked order by ord limit ${perPage} offset ${offsetOf(page, perPage)}) r),
                    '{}'::int[]) as ids`;
  return row;
}
