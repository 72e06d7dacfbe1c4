import type { Sql } from '../db.ts';
import { offsetOf } from './summaries.ts';

/**
 * Alternatives of a live listing of this site: the owner-approved ones first, then other live
 * listings of the same primary category; each group most voted first, newest breaking ties.
 * Returns null when the slug names no live listing of this site.
 *
 * Two statements: with the category known as a value, the planner reads just that category
 * through listings_category_live (as one statement it could not know it and read every live listing).
 * Votes are looked up per candidate by primary key rather than by hashing all of listing_stats.
 */
export async function listingAlternativeIds(sql: Sql, siteId: number, slug: string, page: number, perPage: number) {
  const [me] = await sql<{ id: string; category_id: number | null }[]>`
    select l.id, coalesce(l.primary_category_id,
      (select lc.category_id from listing_categories lc where lc.listing_id = l.id and lc.is_primary)) as category_id
    from listings l where l.site_id = ${siteId} and l.slug = ${slug} and l.status = 'live'`;
  if (!me) return null;
  const [row] = await sql<{ total: number; items: { id: number; approved: boolean }[] }[]>`
    with approved as materialized (
      select a.alternative_id as id, l.launched_at from listing_alternatives a
      join listings l on l.id = a.alternative_id
      where a.listing_id = ${me.id} and a.approved and l.site_id = ${siteId} and l.status = 'live'
    ), alternatives as materialized (
      select id, true as approved, launched_at from approved
      union all
      select l.id, false, l.launched_at from listings l
      where l.site_id = ${siteId} and l.status = 'live' and l.primary_category_id = ${me.category_id}
        and l.id <> ${me.id} and l.id not in (select id from approved)
    ), ranked as (
      select a.id, a.approved, a.launched_at,
             coalesce((select s.votes from listing_stats s where s.listing_id = a.id), 0) as votes
      from alternatives a
    )
    select (select count(*) from alternatives)::int as total,
           coalesce((select json_agg(json_build_object('id', p.id, 'approved', p.approved) order by p.n)
                     from (select r.id, r.approved,
                                  row_number() over (order by r.approved desc, r.votes desc, r.launched_at desc nulls last, r.id desc) as n
                           from ranked r
                           order by n limit ${perPage} offset ${offsetOf(page, perPage)}) p), '[]') as items`;
  return row;
}
