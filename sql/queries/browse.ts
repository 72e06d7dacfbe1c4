import type { Sql } from '../db.ts';
import { EMPTY, raw, run, stmt } from '../statement.ts';
import { exactFacetCount, exactListingCount, type Facet } from './listing-counts.ts';
import { listingFilters, NONE, newestOf, type SearchFilters, STAT } from './listing-filters.ts';
import { offsetOf, summariesOf, wholeNumber } from './summaries.ts';

/**
 * Live now, for a listing_stats row live at the last refresh: the refresh keeps `live` current for
 * every listing it has not been told about since, so only the few in listing_stats_dirty are looked
 * up. The unfiltered walk reads the counter's index alone with it: joined to listings, a deep page
 * was planned as a hash join of every live listing (page 500 by follows: 49 ms at 100k).
 */
const stillLive = (siteId: number) =>
  raw(`and s.listing_id not in (select d.listing_id from listing_stats_dirty d join listings dl on dl.id = d.listing_id
            where dl.status <> 'live' or dl.site_id <> ${wholeNumber(siteId)})`);

/**
 * A live category's matches, counted from category_counts (its members as of the last refresh), less
 * its members changed since, plus the changed listings that match now (dm). A deleted listing leaves
 * category_members at once but category_counts at the next refresh (which recounts, flagged by
 * board_totals in views_dirty): until then its matches are counted.
 */
const categoryCount = (siteId: number) => `select (case when exists (select from views_dirty v where v.view_name = 'board_totals')
      then (select count(*) from m)
      else coalesce((select k.listings from category_counts k where k.site_id = ${wholeNumber(siteId)} and k.category_id = (select cx.id from cx)), 0)
        - (select count(*) from category_members cm where cm.category_id = (select cx.id from cx) and cm.site_id = ${wholeNumber(siteId)}
             and cm.listing_id in (select d.listing_id from listing_stats_dirty d))
        + (select count(*) from dm) end)::int as n`;

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
 * from listing_counts or listing_facet_counts and their pending moves, and walk checking the listings
 * they read: the matches are read only when they are few enough to sort, and a page past the last
 * match reads nothing.
 *
 * A live category's matches come from category_members (its listings and its subcategories', as
 * of the last refresh) for every listing unchanged since then, and from the listings themselves for
 * those changed (listing_stats_dirty): the refresh keeps category_members current for every
 * listing it has not been told about, so the two together are exactly the matches now, without the
 * union of tags and primary categories joined to every live listing (20 ms at 100k, for 12k matches).
 *
 * Counter sorts show the listings live at the last refresh (about a minute) that are live now, in
 * the counters' and launch times' order as of that refresh: one launched since joins at the next.
 */
export async function browsePage(sql: Sql, siteId: number, f: SearchFilters, page: number, perPage: number, siteUrl: string | null) {
  const { domain, filters, cat } = listingFilters(siteId, f);
  const site = raw(wholeNumber(siteId));
  const offset = offsetOf(page, perPage);
  const statKey = f.sort === 'relevance' || f.sort === 'newest' ? 'votes' : f.sort;
  const stat = raw(STAT[statKey]);
  const newest = (t: string) => raw(newestOf(t));
  // The page's bounds written in (a walk's plan is only right for a known small limit): a plan per page shape.
  const bounds = raw(offset > 0 ? `limit ${wholeNumber(perPage)} offset ${wholeNumber(offset)}` : `limit ${wholeNumber(perPage)}`);
  const live = f.status === 'live';
  const unfiltered =
    live && f.category === undefined && f.stage === undefined && f.country === undefined && f.pricingModel === undefined && domain === undefined;
  const fromMembers = live && f.category !== undefined;
  // One stage, country or pricing model alone: counted without reading the matches (migration 0027).
  const facets: (Facet | null)[] = [
    f.stage !== undefined ? { facet: 'stage', value: f.stage } : null,
    f.country !== undefined ? { facet: 'country', value: f.country.toUpperCase() } : null,
    f.pricingModel !== undefined ? { facet: 'pricing', value: f.pricingModel.trim().toLowerCase() } : null,
  ];
  const facet = live && f.category === undefined && domain === undefined && facets.filter(Boolean).length === 1 ? facets.find(Boolean)! : null;
  const otherFilters = f.stage !== undefined || f.country !== undefined || f.pricingModel !== undefined || domain !== undefined;
  // A category alone: counted from category_counts, less its members changed since the refresh, plus
  // the changed listings that match now (dm); the walk probes category_members for each listing.
  const categoryAlone = fromMembers && !otherFilters;
  // Counted without m, the walk checks the listings it reads rather than m's members (the unfiltered
  // one only those changed since the refresh), so m is read only when the matches are few enough to sort.
  const perRow = unfiltered || facet !== null || categoryAlone;

  // A live category's matches: its members unchanged since the refresh, and the changed listings
  // that match now (dm, a handful: probed one by one).
  const dirtyMatches = fromMembers
    ? stmt`, cx as (select c.id from categories c where c.slug = ${f.category!}),
      dm as materialized (select l.id, l.launched_at from listings l where l.id in (select d.listing_id from listing_stats_dirty d) and ${filters(true, 'row')})`
    : EMPTY;
  const matches = fromMembers
    ? stmt`select cm.listing_id as id, cm.launched_at from category_members cm
        ${otherFilters ? stmt`join listings l on l.id = cm.listing_id and ${filters(true, 'none')}` : EMPTY}
        where cm.site_id = ${site} and cm.category_id = (select cx.id from cx)
          and not (cm.listing_id in (select d.listing_id from listing_stats_dirty d))
        union all
        select dm.id, dm.launched_at from dm`
    : stmt`select l.id, l.launched_at from listings l where ${filters(true)}`;
  // A listing read by a walk is in a category alone's matches: changed and matching now, or
  // unchanged and a member (offset 0: probed per listing, never a hash of every member).
  const inCategory = (id: string) =>
    raw(`and (not (${id} not in (select dm.id from dm))
          or (${id} not in (select d.listing_id from listing_stats_dirty d)
              and exists (select from category_members cm where cm.category_id = (select cx.id from cx) and cm.listing_id = ${id} offset 0)))`);

  // m's members, as a hashed filter on the walk (NOT NOT IN: IN would become a join that reads all
  // of m and the order's index); or each listing read, joined, checked against the filters.
  const member = (id: string) => raw(`not (${id} not in (select m.id from m))`);
  const walk =
    f.sort === 'newest'
      ? stmt`select l.id from listings l where ${
          categoryAlone
            ? stmt`l.site_id = ${site} and l.status = 'live' ${inCategory('l.id')}`
            : perRow
              ? filters(true)
              : stmt`l.site_id = ${site} and l.status = 'live' and ${member('l.id')}`
        }
          order by ${newest('l')} ${bounds}`
      : stmt`select s.listing_id from listing_stats s ${facet !== null ? stmt`join listings l on l.id = s.listing_id and ${filters(true)}` : EMPTY}
          where s.site_id = ${site} and s.live ${
            unfiltered ? stillLive(siteId) : facet !== null ? EMPTY : categoryAlone ? inCategory('s.listing_id') : stmt`and ${member('s.listing_id')}`
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
      ? stmt`select ${exactFacetCount(siteId, facet)} as n`
      : categoryAlone
        ? raw(categoryCount(siteId))
        : raw('select count(*)::int as n from m');
  const [row] = await run<BrowsePage>(
    sql,
    stmt`with ${f.category !== undefined ? stmt`${cat()}${dirtyMatches}, ` : EMPTY}m as materialized (${matches}), n as (${count})${choice}
      select (select n.n from n) as total, ${siteUrl === null ? stmt`${ids} as ids` : stmt`${summariesOf(ids, siteUrl)}::text as items`}`,
  );
  return row!;
}
