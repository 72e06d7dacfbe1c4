import type { Sql } from '../db.ts';
import { offsetOf } from './summaries.ts';

/**
 * Alternatives of a live listing of this site: the owner-approved ones first, then other live
 * listings of the same primary category; each group most voted first, newest breaking ties.
 * Returns null when the slug names no live listing of this site.
 */
export async function listingAlternativeIds(sql: Sql, siteId: number, slug: string, page: number, perPage: number) {
  const [row] = await sql<{ total: number; items: { id: number; approved: boolean }[] }[]>`
    with me as (
      select l.id, coalesce(l.primary_category_id,
        (select lc.category_id from listing_categories lc where lc.listing_id = l.id and lc.is_primary)) as category_id
      from listings l where l.site_id = ${siteId} and l.slug = ${slug} and l.status = 'live'
    ), approved as (
      select a.alternative_id as id from listing_alternatives a
      join me on a.listing_id = me.id
      join listings l on l.id = a.alternative_id
      where a.approved and l.site_id = ${siteId} and l.status = 'live'
    ), alternatives as materialized (
      select id, true as approved from approved
      union all
      select l.id, false from listings l, me
      where l.site_id = ${siteId} and l.status = 'live' and l.primary_category_id = me.category_id
        and l.id <> me.id and l.id not in (select id from approved)
    )
    select (select count(*) from alternatives)::int as total,
           coalesce((select json_agg(json_build_object('id', p.id, 'approved', p.approved) order by p.n)
                     from (select a.id, a.approved,
                                  row_number() over (order by a.approved desc, coalesce(s.votes, 0) desc,
                                                              l.launched_at desc nulls last, l.id desc) as n
                           from alternatives a join listings l on l.id = a.id
                           left join mv_listing_stats s on s.listing_id = a.id
                           order by n limit ${perPage} offset ${offsetOf(page, perPage)}) p), '[]') as items
    from me`;
  return row ?? null;
}
