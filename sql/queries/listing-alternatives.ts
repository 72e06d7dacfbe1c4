import type { Sql } from '../db.ts';
import { offsetOf } from './summaries.ts';

/**
 * Alternatives of a live listing of this site: the owner-approved ones first, then other live
 * listings of the same primary category; each group most voted first, newest breaking ties, then id.
 * Returns null when the slug names no live listing of this site.
 *
 * The category's part is read in one of two ways, whichever reads fewer entries (a large category
 * relative to the directory walks, a small one is read whole):
 * - walking listing_stats in votes order (listing_stats_live_rank) and keeping the category's
 *   listings, about (offset + page) x N / c entries of the N live listings for a category of c (page 1
 *   of a category of 2,700: 11 ms before this walk, under 1 ms);
 * - reading the category's listings and sorting them by their counters.
 * Every value that shapes the plan (site, category, page bounds) is read from the row k rather than
 * bound: the cheaper plan depends on the category's size, so with bound values PostgreSQL planned the
 * statement anew on every call (1 to 2.5 ms, as much as it ran), and a generic plan of the join
 * hashed the whole directory. Each branch has one sensible plan, so the cached one is kept.
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
  const [row] = await sql<{ in_category: number; ids: string[] }[]>`
    with k as (select ${siteId}::int as site, ${me.category_id}::int as category, ${me.id}::bigint as me,
                      ${approved}::bigint[] as approved, ${take}::bigint as take, ${skip}::bigint as skip),
         c as (select primary_category_live(k.site, k.category) as n from k)
    select (select c.n from c) as in_category,
      case when (select c.n from c)::float8 ^ 2 >= (select (k.take + k.skip)::float8 from k) * greatest(coalesce((
                  select n.listings from listing_counts n where n.site_id = (select k.site from k) and n.status = 'live'), 0), 1)
      then array(
        -- The walk: the category is a correlated lookup, so no plan can hash the directory instead.
        select s.listing_id from listing_stats s
        where s.site_id = (select k.site from k) and s.live and s.listing_id <> (select k.me from k)
          and s.listing_id <> all((select k.approved from k)::bigint[])
          and (select l.primary_category_id from listings l
               where l.id = s.listing_id and l.site_id = (select k.site from k) and l.status = 'live') = (select k.category from k)
        order by s.votes desc, s.launched_at desc nulls last, s.listing_id desc
        limit (select k.take from k) offset (select k.skip from k))
      else array(
        -- The category whole: its listings, each one's counters looked up (offset 0 keeps the lookup
        -- a lookup), sorted.
        select x.listing_id from (
          select s.listing_id, s.votes, s.launched_at from listings l
          cross join lateral (select s.listing_id, s.votes, s.launched_at from listing_stats s
                              where s.listing_id = l.id and s.live offset 0) s
          where l.site_id = (select k.site from k) and l.status = 'live' and l.primary_category_id = (select k.category from k)
            and l.id <> (select k.me from k) and l.id <> all((select k.approved from k)::bigint[])) x
        order by x.votes desc, x.launched_at desc nulls last, x.listing_id desc
        limit (select k.take from k) offset (select k.skip from k))
      end as ids`;
  for (const id of row.ids) items.push({ id: Number(id), approved: false });
  // The category's count holds the listing itself and its approved alternatives when their own
  // column names the category (the group leaves them out); a listing whose category comes only from
  // its primary tag is not in the count.
  const inCount = [me.primary_category_id, ...me.approved_categories].filter((c) => c === me.category_id).length;
  const others = row.in_category - inCount;
  return { total: approved.length + others, items };
}
