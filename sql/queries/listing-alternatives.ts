import type { Sql } from '../db.ts';
import { offsetOf } from './summaries.ts';

/**
 * Alternatives of a live listing of this site: the owner-approved ones first, then other live
 * listings of the same primary category; each group most voted first, newest breaking ties, then id.
 * Returns null when the slug names no live listing of this site.
 *
 * The category's part is read from listing_stats in that order (listing_stats_live_rank): a page
 * walks the index and stops once it has found enough listings of the category, so it costs about
 * the same at any size of directory (page 1 of a category of 2,700: 11 ms before, under 1 ms).
 * Deep pages of small categories are left to the planner, which then reads the category instead.
 * Votes and launch times are those of the last refresh, as on every board. The total is the
 * category's kept count of live listings as of now (primary_category_live, migration 0015), less
 * the listing itself and the approved ones of the category: no longer counted from the listings.
 */
export async function listingAlternativeIds(sql: Sql, siteId: number, slug: string, page: number, perPage: number) {
  const [me] = await sql<{ id: string; primary_category_id: number | null; category_id: number | null }[]>`
    select l.id, l.primary_category_id, coalesce(l.primary_category_id,
      (select lc.category_id from listing_categories lc where lc.listing_id = l.id and lc.is_primary)) as category_id
    from listings l where l.site_id = ${siteId} and l.slug = ${slug} and l.status = 'live'`;
  if (!me) return null;
  const approvedRows = await sql<{ id: string; primary_category_id: number | null }[]>`
      select l.id, l.primary_category_id from listing_alternatives a
      join listings l on l.id = a.alternative_id
      left join listing_stats s on s.listing_id = l.id
      where a.listing_id = ${me.id} and a.approved and l.site_id = ${siteId} and l.status = 'live'
      order by coalesce(s.votes, 0) desc, l.launched_at desc nulls last, l.id desc`;
  const approved = approvedRows.map((r) => Number(r.id));
  const offset = offsetOf(page, perPage);
  const items = approved.slice(offset, offset + perPage).map((id) => ({ id, approved: true }));
  if (me.category_id === null) return { total: approved.length, items };
  const skip = Math.max(0, offset - approved.length);
  const take = perPage - items.length;
  const [row] = await sql<{ in_category: number; ids: string[] }[]>`
    select primary_category_live(${siteId}, ${me.category_id}) as in_category,
      array(select s.listing_id from listing_stats s join listings l on l.id = s.listing_id
            where s.site_id = ${siteId} and s.live and l.site_id = ${siteId} and l.status = 'live'
              and l.primary_category_id = ${me.category_id} and l.id <> ${me.id} and l.id <> all(${approved}::bigint[])
            order by s.votes desc, s.launched_at desc nulls last, s.listing_id desc
            limit ${take} offset ${skip}) as ids`;
  for (const id of row.ids) items.push({ id: Number(id), approved: false });
  // The category's count holds the listing itself and its approved alternatives when their own
  // column names the category (the group leaves them out); a listing whose category comes only from
  // its primary tag is not in the count.
  const inCount = [me, ...approvedRows].filter((r) => r.primary_category_id === me.category_id).length;
  const others = row.in_category - inCount;
  return { total: approved.length + others, items };
}
