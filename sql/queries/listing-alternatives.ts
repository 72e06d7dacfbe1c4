import type { Sql } from '../db.ts';
import { offsetOf } from './summaries.ts';

/**
 * Alternatives of a live listing of this site: the owner-approved ones first, then other live
 * listings of the same primary category; each group most voted first, newest breaking ties, then id.
 * Returns null when the slug names no live listing of this site.
 *
 * The category's part is read from listing_stats_category_rank (migration 0024): the category's
 * live listings in votes order, so a page reads about as many entries as it shows (it walked every
 * live listing in votes order before, looking up each one's category: 0.75-0.85 ms for a first page
 * at 100k, against 11 ms for reading a category of 2,700 whole before that walk).
 * Every value of the statement (site, category, page bounds) is read from the row k rather than
 * bound, so PostgreSQL keeps one cached plan rather than planning each call anew.
 * Votes and launch times are those of the last refresh, as on every board. The total is the
 * category's kept count of live listings as of now (primary_category_live, migration 0015), less
 * the listing itself and the approved ones of the category: no longer counted from the listings.
 */
export async function listingAlternativeIds(sql: Sql, siteId: number, slug: string, page: number, perPage: number) {
  // The listing and its approved alternatives in one round trip (ids and primary categories in order).
  const [me] = await sql<
    { id: string; primary_category_id: number | null; category_id: number | null; approved_ids: string[]; approved_categories: (number | null)[] }[]
  >`
    select l.id, l.primary_category_id, coalesce(l.primary_category_id,
      (select lc.category_id from listing_categories lc where lc.listing_id = l.id and lc.is_primary)) as category_id,
      coalesce(x.ids, '{}') as approved_ids, coalesce(x.categories, '{}') as approved_categories
    from listings l
    left join lateral (
      select array_agg(o.id order by o.ord) as ids, array_agg(o.primary_category_id order by o.ord) as categories
      from (select v.id, v.primary_category_id,
                   row_number() over (order by coalesce(s.votes, 0) desc, v.launched_at desc nulls last, v.id desc) as ord
            from listing_alternatives a
            join listings v on v.id = a.alternative_id
            left join listing_stats s on s.listing_id = v.id
            where a.listing_id = l.id and a.approved and v.site_id = l.site_id and v.status = 'live') o) x on true
    where l.site_id = ${siteId} and l.slug = ${slug} and l.status = 'live'`;
  if (!me) return null;
  const approved = me.approved_ids.map(Number);
  const offset = offsetOf(page, perPage);
  const items = approved.slice(offset, offset + perPage).map((id) => ({ id, approved: true }));
  if (me.category_id === null) return { total: approved.length, items };
  const skip = Math.max(0, offset - approved.length);
  const take = perPage - items.length;
  // The category's live listings in votes order, straight from their index (listing_stats carries
  // the category as listings holds it now: migration 0024); each one read is checked to be live now,
  // as votes and the live flag are the last refresh's. Every value is read from k, so one plan is
  // cached for every category. The check is a scalar lookup by primary key (a listing never changes
  // site), not a semi-join: the cached plan cannot see how small a page is, and at a million
  // listings it joined the check to all 850k live listings, or launched parallel workers for six
  // rows (5-7 ms a call, against 0.15 ms for the walk; the test beside this file).
  const [row] = await sql<{ in_category: number; ids: string[] }[]>`
    with k as (select ${siteId}::int as site, ${me.category_id}::int as category, ${me.id}::bigint as me,
                      ${approved}::bigint[] as approved, ${take}::bigint as take, ${skip}::bigint as skip)
    select primary_category_live((select k.site from k), (select k.category from k)) as in_category,
      array(
        select s.listing_id from listing_stats s
        where s.site_id = (select k.site from k) and s.live and s.primary_category_id = (select k.category from k)
          and s.listing_id <> (select k.me from k) and s.listing_id <> all((select k.approved from k)::bigint[])
          and (select l.status from listings l where l.id = s.listing_id) = 'live'
        order by s.votes desc, s.launched_at desc nulls last, s.listing_id desc
        limit (select k.take from k) offset (select k.skip from k)) as ids`;
  for (const id of row.ids) items.push({ id: Number(id), approved: false });
  // The category's count holds the listing itself and its approved alternatives when their own
  // column names the category (the group leaves them out); a listing whose category comes only from
  // its primary tag is not in the count.
  const inCount = [me.primary_category_id, ...me.approved_categories].filter((c) => c === me.category_id).length;
  const others = row.in_category - inCount;
  return { total: approved.length + others, items };
}
