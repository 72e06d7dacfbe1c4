import type { Sql } from '../db.ts';
import { EMPTY, raw, run, type Statement, stmt } from '../statement.ts';
import { exactFacetCount, exactListingCount, type Facet } from './listing-counts.ts';
import { listingFilters, NONE, newestOf, type SearchFilters, STAT } from './listing-filters.ts';
import { offsetOf, summariesOf, wholeNumber } from './summaries.ts';

/**
 * A live category's listings as of the last refresh (category_counts, as get_category counts them):
 * counting them now took a probe of every listing changed since the refresh, and a busy minute
 * changes thousands (each view notes its listing): 127 ms at a million with 6,000.
 */
const categoryCount = (siteId: number) =>
  `select coalesce((select k.listings from category_counts k where k.site_id = ${wholeNumber(siteId)} and k.category_id = (select cx.id from cx)), 0)::int as n`;

/** A list's page, as ids or as its listings' summaries (JSON text), and how many match. */
export interface BrowsePage {
  total: number;
  ids?: bigint[];
  items?: string;
}

/**
 * A list without q, in one statement: the matches (m) are read once, counted, and the page is
 * reached one of two ways. A walk reads the sort's index in order and keeps m's members: about
 * k x N / n entries for n matches among N listings. A sort looks up each match's counters and
 * orders them. A filter matching few listings (a rare country, a pricing model no one uses) made
 * the walk read the whole directory (1 s at 100k for none), so the statement walks only when
 * n^2 >= 4 x k x N. Upcoming listings are never walked (not launched, their counters sit together
 * at the order's end), nor a domain's handful.
 *
 * The unfiltered live list, and one filtered by a stage, country or pricing model alone, are counted
 * exactly from listing_counts or listing_facet_counts and their pending moves; a category alone as of
 * the last refresh. They walk checking each listing they read: the matches are read only when they
 * are few enough to sort, and a page past the last match reads nothing.
 *
 * A live category's matches, when read, come from category_members (its listings and its
 * subcategories', as of the last refresh) for every listing unchanged since then, and from the
 * listings themselves for those changed (listing_stats_dirty): the refresh keeps category_members
 * current for every listing it has not been told about, so the two together are exactly the matches
 * now, without the union of tags and primary categories joined to every live listing (20 ms at 100k).
 *
 * Counter sorts show the listings live at the last refresh (about a minute) that are live now, in
 * the counters' and launch times' order as of that refresh: one launched since joins at the next.
 */
export async function browsePage(sql: Sql, siteId: number, f: SearchFilters, page: number, perPage: number, siteUrl: string | null) {
  const { domain, filters: bound, cat, facetValues } = listingFilters(siteId, f);
  // The stage, country and pricing model read from fv: a cached plan for any value.
  const filters = (literal: boolean, category: 'set' | 'row' | 'none' = 'set') => bound(literal, category, true);
  const site = raw(wholeNumber(siteId));
  const offset = offsetOf(page, perPage);
  const statKey = f.sort === 'relevance' || f.sort === 'newest' ? 'votes' : f.sort;
  const stat = raw(STAT[statKey]);
  const newest = (t: string) => raw(newestOf(t));
  // The page's bounds written in (a walk's plan is only right for a known small limit): a plan per page shape.
  const bounds = raw(offset > 0 ? `limit ${wholeNumber(perPage)} offset ${wholeNumber(offset)}` : `limit ${wholeNumber(perPage)}`);
  const live = f.status === 'live';
  const facets: (Facet | null)[] = [
    f.stage !== undefined ? 'stage' : null,
    f.country !== undefined ? 'country' : null,
    f.pricingModel !== undefined ? 'pricing' : null,
  ];
  // Any filter but the category.
  const otherFilters = facets.some(Boolean) || domain !== undefined;
  const unfiltered = live && f.category === undefined && !otherFilters;
  const fromMembers = live && f.category !== undefined;
  // One stage, country or pricing model alone: counted without reading the matches (migration 0027).
  const facet = live && f.category === undefined && domain === undefined && facets.filter(Boolean).length === 1 ? facets.find(Boolean)! : null;
  // A category alone: counted as of the last refresh (categoryCount), and walked as a facet is.
  const categoryAlone = fromMembers && !otherFilters;
  // Counted without m, the walk checks each listing it reads, so m is read only when the matches are
  // few enough to sort.
  const perRow = unfiltered || facet !== null || categoryAlone;

  // A live category's matches: its members unchanged since the refresh, and the changed listings
  // that match now.
  const matches = fromMembers
    ? stmt`select cm.listing_id as id, cm.launched_at from category_members cm
        ${otherFilters ? stmt`join listings l on l.id = cm.listing_id and ${filters(true, 'none')}` : EMPTY}
        where cm.site_id = ${site} and cm.category_id = (select cx.id from cx)
          and not (cm.listing_id in (select d.listing_id from listing_stats_dirty d))
        union all
        select l.id, l.launched_at from listings l where l.id in (select d.listing_id from listing_stats_dirty d) and ${filters(true, 'row')}`
    : stmt`select l.id, l.launched_at from listings l where ${filters(true)}`;
  // m's members, as a hashed filter on the walk (NOT NOT IN: IN would become a join that reads all
  // of m and the order's index).
  const member = (id: string) => raw(`not (${id} not in (select m.id from m))`);
  // Or each listing read, checked as it is now (a probe of listings, and of its tags for a category:
  // offset 0, never a join, which a deep page planned as a hash join of every live listing), or, for
  // one unchanged since the refresh when the check needs no more than that: live (as listing_stats
  // says) and, for a category, among its members (an index probe, no listing read). Only the ids of
  // the listings changed since are hashed: a busy minute changes thousands (each view notes its
  // listing), and probing them all cost 26 ms a page at a million with 6,000.
  const now = (id: string) => stmt`exists (select from listings l where l.id = ${raw(id)} and ${filters(true, 'row')} offset 0)`;
  // changed: the check of a listing changed since the refresh (the walk's own listings row, or now()).
  const changedOr = (id: string, changed: Statement, unchanged: string) =>
    stmt`(case when ${raw(id)} in (select d.listing_id from listing_stats_dirty d) then ${changed} else ${raw(unchanged)} end)`;
  const memberOf = (id: string) => `exists (select from category_members cm where cm.category_id = (select cx.id from cx) and cm.listing_id = ${id} offset 0)`;
  const walk =
    f.sort === 'newest'
      ? stmt`select l.id from listings l where ${
          categoryAlone
            ? stmt`l.site_id = ${site} and l.status = 'live' and ${changedOr('l.id', stmt`(${filters(true, 'row')})`, memberOf('l.id'))}`
            : perRow
              ? filters(true)
              : stmt`l.site_id = ${site} and l.status = 'live' and ${member('l.id')}`
        }
          order by ${newest('l')} ${bounds}`
      : stmt`select s.listing_id from listing_stats s where s.site_id = ${site} and s.live and ${
          unfiltered
            ? changedOr('s.listing_id', now('s.listing_id'), 'true')
            : categoryAlone
              ? changedOr('s.listing_id', now('s.listing_id'), memberOf('s.listing_id'))
              : facet !== null
                ? now('s.listing_id')
                : member('s.listing_id')
        }
          order by ${stat} desc, s.launched_at desc nulls last, s.listing_id desc ${bounds}`;
  // Each match's counters by primary key (offset 0: one probe per match, never a hash of all of
  // listing_stats). A domain's listings without counters yet count as zero, as they always have.
  const counters = (outer: boolean) =>
    stmt`${raw(outer ? 'left join' : 'join')} lateral (select ${stat} as c, s.launched_at from listing_stats s
          where s.listing_id = m.id ${live && domain === undefined ? raw('and s.live') : EMPTY} offset 0) s on true`;
  const sorted =
    f.sort === 'newest'
      ? stmt`select m.id from m order by ${newest('m')} ${bounds}`
      : domain !== undefined
        ? stmt`select m.id from m ${counters(true)} order by coalesce(s.c, ${raw(NONE[statKey])}) desc, ${newest('m')} ${bounds}`
        : stmt`select m.id from m ${counters(false)} order by s.c desc, s.launched_at desc nulls last, m.id desc ${bounds}`;

  const walks = live && domain === undefined;
  // A page past the last match reads nothing (a deep page walked the whole order to find it empty).
  const past = offset > 0 ? raw(`when (select n.n from n) <= ${wholeNumber(offset)} then '{}'::bigint[] `) : EMPTY;
  const ids = walks
    ? stmt`case ${past}when (select c.walk from choice c) then array(${walk}) else array(${sorted}) end`
    : stmt`case ${past}when true then array(${sorted}) end`;
  const choice = walks
    ? raw(`, choice as (select (select n.n from n)::float8 ^ 2 >= ${wholeNumber(4 * (offset + perPage))} * greatest(coalesce((
        select sum(c.listings) from listing_counts c where c.site_id = ${wholeNumber(siteId)}), 0), 1) as walk)`)
    : EMPTY;
  const count = unfiltered
    ? raw(`select ${exactListingCount(siteId, 'live')} as n`)
    : facet !== null
      ? raw(`select ${exactFacetCount(siteId, facet)} as n`)
      : categoryAlone
        ? raw(categoryCount(siteId))
        : raw('select count(*)::int as n from m');
  const [row] = await run<BrowsePage>(
    sql,
    stmt`with ${facetValues()}, ${f.category !== undefined ? stmt`${cat()}, cx as (select c.id from categories c where c.slug = ${f.category}), ` : EMPTY}m as materialized (${matches}), n as (${count})${choice}
      select (select n.n from n) as total, ${siteUrl === null ? stmt`${ids} as ids` : stmt`${summariesOf(ids, siteUrl)}::text as items`}`,
  );
  return row!;
}
