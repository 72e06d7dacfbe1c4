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
  return (await alternativeIdsOf(sql, siteId, [slug], page, perPage))[0] ?? null;
}

/** A listing's page of alternatives: how many there are, and the ids of the page in order. */
export interface AlternativeIds {
  total: number;
  items: { id: number; approved: boolean }[];
}

/**
 * The same page of alternatives for each of these slugs (undefined where no live listing of this
 * site has the slug), in two statements whatever their number: the listing pages a turn renders
 * share them, as their profiles share get_listing's.
 */
export async function alternativeIdsOf(
  sql: Sql,
  siteId: number,
  slugs: readonly string[],
  page: number,
  perPage: number,
): Promise<(AlternativeIds | undefined)[]> {
  // The listings and their approved alternatives in one round trip (ids and primary categories in order).
  const mes = await sql<
    {
      id: string;
      slug: string;
      primary_category_id: number | null;
      category_id: number | null;
      approved_ids: string[];
      approved_categories: (number | null)[];
    }[]
  >`
    select l.id, l.slug, l.primary_category_id, coalesce(l.primary_category_id,
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
    where l.site_id = ${siteId} and l.slug = any((select ${slugs as string[]}::text[])::text[]) and l.status = 'live'`;
  const offset = offsetOf(page, perPage);
  const found = new Map<string, AlternativeIds>();
  const walks: { me: (typeof mes)[number]; found: AlternativeIds; take: number; skip: number }[] = [];
  for (const me of mes) {
    const approved = me.approved_ids.map(Number);
    const items = approved.slice(offset, offset + perPage).map((id) => ({ id, approved: true }));
    const one = { total: approved.length, items };
    found.set(me.slug, one);
    if (me.category_id !== null) walks.push({ me, found: one, skip: Math.max(0, offset - approved.length), take: perPage - items.length });
  }
  if (walks.length) {
    // The category's live listings in votes order, straight from their index (listing_stats carries
    // the category as listings holds it now: migration 0024); each one read is checked to be live now,
    // as votes and the live flag are the last refresh's. Every value is read from k, a listing's row
    // of values, so one plan is cached for every category and batch. The check is a scalar lookup
    // by primary key (a listing never changes site), not a semi-join: the cached plan cannot see how
    // small a page is, and at a million listings it joined the check to all 850k live listings, or
    // launched parallel workers for six rows (5-7 ms a call, against 0.15 ms for the walk; the test
    // beside this file). A listing's approved ids travel as array text: arrays of arrays must be even.
    const rows = await sql<{ me: string; in_category: number; ids: string[] }[]>`
      with k as materialized (
        select ${siteId}::int as site, k.*
        from unnest((select ${walks.map((w) => String(w.me.id))}::bigint[]), (select ${walks.map((w) => w.me.category_id!)}::int[]),
                    (select ${walks.map((w) => `{${w.me.approved_ids.join(',')}}`)}::text[]),
                    (select ${walks.map((w) => w.take)}::bigint[]), (select ${walks.map((w) => w.skip)}::bigint[]))
             as k(me, category, approved, take, skip))
      select k.me, primary_category_live(k.site, k.category) as in_category,
        array(
          select s.listing_id from listing_stats s
          where s.site_id = k.site and s.live and s.primary_category_id = k.category
            and s.listing_id <> k.me and s.listing_id <> all(k.approved::bigint[])
            and (select l.status from listings l where l.id = s.listing_id) = 'live'
          order by s.votes desc, s.launched_at desc nulls last, s.listing_id desc
          limit k.take offset k.skip) as ids
      from k`;
    const byMe = new Map(rows.map((r) => [String(r.me), r]));
    for (const { me, found: one } of walks) {
      const row = byMe.get(String(me.id))!;
      for (const id of row.ids) one.items.push({ id: Number(id), approved: false });
      // The category's count holds the listing itself and its approved alternatives when their own
      // column names the category (the group leaves them out); a listing whose category comes only from
      // its primary tag is not in the count.
      const inCount = [me.primary_category_id, ...me.approved_categories].filter((c) => c === me.category_id).length;
      one.total += row.in_category - inCount;
    }
  }
  return slugs.map((slug) => found.get(slug));
}
