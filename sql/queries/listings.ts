import type { Sql } from '../db.ts';
import { raw, run, type Statement, stmt } from '../statement.ts';
import { browsePage } from './browse.ts';
import { listingFilters, NONE, newestOf, type SearchFilters, STAT } from './listing-filters.ts';
import { offsetOf, summariesOf, type ListingSummaryRow } from './summaries.ts';

export { normalizeDomain, SEARCH_SORTS, type SearchFilters, type SearchSort } from './listing-filters.ts';

/** Free text as compared with names: trimmed, lower case, single spaces. */
const nameText = (q: string) => q.trim().toLowerCase().replace(/\s+/g, ' ');

/** Matches from which relevance reads a large tie at the page's end by walking the votes order. */
const TIES_AT = 500;

/**
 * A counter of one row of table alias t, looked up by primary key: a handful of index probes for
 * the usual few hundred matches, where a join would hash all of listing_stats.
 */
const counterOf = (col: keyof typeof STAT, t: string) => `coalesce((select ${STAT[col]} from listing_stats s where s.listing_id = ${t}.id), ${NONE[col]})`;

/**
 * Relevance among many live matches (m): the tie at the page's end can be most of them (every
 * listing whose tagline has a broad word once scores the same), and looking up each one's votes
 * was a third of such a search. So b is the k-th best (name, score), a the matches above it, t those
 * tied with it; t's best by votes come from walking listing_stats_live_rank (the votes order) and
 * keeping t's members, when that reads fewer entries than t has: about k x N / |t| of the N live
 * listings, against |t| lookups. Listings changed since the last refresh (listing_stats_dirty) are
 * left out of the walk and looked up; every other listing's row in listing_stats is as the refresh
 * left it and current (the refresh's own invariant), so the order is the lookups' own. Fixed text (k
 * and the site come from the CTE k), two parts made once rather than fifteen on every search.
 */
const TIERS = raw(`n as (select count(*) as n from m),
      b as (select m.name, m.score from m order by m.name desc, m.score desc offset (select k.k from k) - 1 limit 1),
      a as materialized (select m.* from m where not exists (select from b) or (m.name, m.score) > (select b.name, b.score from b)),
      t as materialized (select m.* from m join b on m.name = b.name and m.score = b.score),
      -- At least one live listing counted, so an empty tie never walks (before a first refresh).
      walk as (select (select count(*) from t)::float8 ^ 2 * 10 >= (select k.k from k)::float8 * greatest(coalesce((
                 select c.listings from listing_counts c where c.site_id = (select k.site from k) and c.status = 'live'), 0), 1) as chosen)`);
const WALKED = raw(`select x.id from (
        select a.id, a.name, a.score, ${counterOf('votes', 'a')} as votes, a.launched_at from a
        union all
        select t.id, t.name, t.score, ${counterOf('votes', 't')}, t.launched_at from t
        where not (select walk.chosen from walk) or t.id in (select d.listing_id from listing_stats_dirty d)
        union all
        select w.id, b.name, b.score, w.votes, w.launched_at from b, (
          select s.listing_id as id, s.votes, s.launched_at from listing_stats s
          where (select walk.chosen from walk) and s.site_id = (select k.site from k) and s.live
            -- NOT NOT IN: a hashed filter on the walk, which IN would turn into a join.
            and not (s.listing_id not in (select t.id from t))
            and s.listing_id not in (select d.listing_id from listing_stats_dirty d)
          order by s.votes desc, s.launched_at desc nulls last, s.listing_id desc
          limit (select k.k from k) - (select count(*) from a)) w
      ) x order by x.name desc, x.score desc, x.votes desc, ${newestOf('x')}`);

/** The page of a search as its listings' summaries, and the count of every match. */
export async function searchListings(...args: Parameters<typeof searchListingsJson>) {
  const { itemsJson, total } = await searchListingsJson(...args);
  return { items: JSON.parse(itemsJson) as ListingSummaryRow[], total };
}

/**
 * The same with the summaries as the JSON text the database wrote: a search answers them as they
 * are (the edge parsed and stringified each page again, a few percent of a long-tail search).
 */
export async function searchListingsJson(sql: Sql, siteId: number, f: SearchFilters, page: number, perPage: number, siteUrl: string) {
  const { items, total } = await searchPage(sql, siteId, f, page, perPage, siteUrl);
  return { itemsJson: items ?? '[]', total };
}

/** The page of a search as ids, and the count of every match. */
export async function searchListingIds(sql: Sql, siteId: number, f: SearchFilters, page: number, perPage: number) {
  const { ids, total } = await searchPage(sql, siteId, f, page, perPage, null);
  return { ids: ids ?? [], total };
}

/**
 * Picks the page of ids with the filters and ranking in SQL, and counts the matches; given the
 * site's URL, the page comes as its listings' summaries from the same statement (one round trip).
 * With q: the matches are collected once (a materialized CTE: one pass over the GIN bitmap's rows)
 * and both counted and ordered from it, so total is exact; counters are looked up only for the
 * rows that can reach the page.
 * Without q: browse.ts.
 */
async function searchPage(sql: Sql, siteId: number, f: SearchFilters, page: number, perPage: number, siteUrl: string | null) {
  const q = f.q?.trim() ? f.q : undefined;
  if (!q) return browsePage(sql, siteId, f, page, perPage, siteUrl);
  // Text without a letter or digit has no words and no trigrams: it matches nothing.
  if (!/[\p{L}\p{N}]/u.test(q)) return { total: 0, ids: [], items: '[]' };
  const qName = nameText(q);
  const offset = offsetOf(page, perPage);
  const { filters, cat } = listingFilters(siteId, f);
  const newest = (t: string) => raw(newestOf(t));
  // A score only for relevance: ts_rank (not the cover-density ts_rank_cd) over search_rank, the
  // small name/tagline/keywords vector, so no large description vector is read or detoasted.
  const relevance = f.sort === 'relevance';
  const score = (byName: boolean) =>
    !relevance ? raw('0::real') : byName ? stmt`similarity(lower(l.name), ${qName})` : raw('ts_rank(l.search_rank, (select ranked from tq))');
  // name: 3 = the name is q, 2 = it starts with q, 1 = it is q with its typos corrected (as many
  // words as q, each matched by q's alternatives: "zeloulwu" finds "Zeloulu" before "Zeloulu Hub"
  // and "Zeloulu Cloud Notes", which rank the same by text), 0 = none of these. The last is checked
  // only for names about as long as q, so a broad word's thousands of matches parse no name.
  const words = new Set(qName.split(/[^\p{L}\p{N}]+/u).filter(Boolean)).size;
  const corrected = (byName: boolean) =>
    byName || !relevance
      ? raw('0')
      : stmt`case when abs(length(l.name) - ${qName.length}::int) <= 2 and length(to_tsvector('simple', l.name)) = ${words}::int
               and to_tsvector('simple', l.name) @@ (select tq.ranked from tq) then 1 else 0 end`;
  const match = (byName: boolean) => stmt`l.id, l.launched_at, ${score(byName)} as score,
    case when starts_with(lower(l.name), ${qName}) then case when lower(l.name) = ${qName} then 3 else 2 end else ${corrected(byName)} end as name`;
  const counter = (col: keyof typeof STAT, t: string) => raw(counterOf(col, t));
  const K = offset + perPage;
  const ordered =
    f.sort === 'relevance'
      ? // Exact name, then name prefix, then score; votes break ties, so they are looked up only for
        // the rows that can still reach the page (the best ones and everything tied with the last).
        stmt`select p.id from (select * from m order by m.name desc, m.score desc fetch first (select k.k from k) rows with ties) p
          order by p.name desc, p.score desc, ${counter('votes', 'p')} desc, ${newest('p')}`
      : f.sort === 'newest'
        ? stmt`select m.id from m order by ${newest('m')}`
        : stmt`select m.id from m order by ${counter(f.sort, 'm')} desc, ${newest('m')}`;
  const walkTies = f.sort === 'relevance' && f.status === 'live';
  // The page's bounds as a row the statement reads, not as bound LIMIT and OFFSET: PostgreSQL costs
  // a bound LIMIT at a guess in a generic plan but exactly in a custom one, so with a million
  // listings the generic plan looked dearer and every search was planned anew (1.4 ms). Read from
  // k, both plans cost the same and the cached one is kept; the limit still bounds each sort.
  const bounds = stmt`k as (select ${K}::bigint as k, ${perPage}::bigint as per_page, ${offset}::bigint as off, ${siteId}::int as site)`;
  const pageWindow = raw('limit (select k.per_page from k) offset (select k.off from k)');
  // The page and the count of one set of matches (m). Under TIES_AT matches the lookups are cheap,
  // and the tiers' own steps would cost more than they save.
  // The page's ids as an array, and with the site's URL its summaries from them (summariesOf).
  const out = (ids: Statement) =>
    siteUrl === null ? stmt`${ids} as ids` : stmt`${summariesOf(raw('p.ids'), siteUrl)}::text as items from (select ${ids} as ids) p`;
  const pageOf = (m: Statement) =>
    run<Found>(
      sql,
      walkTies
        ? stmt`
    with ${cat()}, ${m}, ${bounds}, ${TIERS}
    select (select n.n from n)::int as total,
           ${out(stmt`case when (select n.n from n) < ${TIES_AT} then array(${ordered} ${pageWindow})
                else array(${WALKED} ${pageWindow}) end`)}`
        : stmt`
    with ${cat()}, ${m}, ${bounds}
    select (select count(*) from m)::int as total,
           ${out(stmt`array(${ordered} ${pageWindow})`)}`,
    );
  // The GIN index answers the tsquery exactly; the heap row gives the filters and the order. When
  // one term's group is far rarer than another's (narrow), the index finds that group alone and
  // each of its few listings is checked against the whole query (ts_match_vq: @@ the index cannot
  // take over), the same rows without the index intersecting the rare group with a large one.
  // The typo-tolerant tsqueries of q (typo_tsqueries: stop words, short terms, near words): ranked
  // scores, matched finds the same listings (prefixes spelled out where GIN can skip faster).
  let [row] = await pageOf(
    stmt`tq as materialized (select ranked, matched, narrow from typo_tsqueries(${q})),
    m as materialized (select ${match(false)} from listings l where ${filters(true, 'row')}
      and l.search @@ (select coalesce(tq.narrow, tq.matched) from tq)
      and ((select tq.narrow from tq) is null or ts_match_vq(l.search, (select tq.matched from tq))))`,
  );
  if (row.total === 0) {
    // Only when no words match: names similar to q as a whole (run-together or badly misspelt
    // names). A statement of its own, run only then: estimating `%` for a plan compares q with the
    // sampled names, which was over half of the search statement's planning time.
    [row] = await pageOf(stmt`m as materialized (select ${match(true)} from listings l where ${filters(true, 'row')} and lower(l.name) % ${qName})`);
  }
  return row!;
}

/** What a search statement answers: the count, and the page as ids or as summaries. */
interface Found {
  total: number;
  ids?: bigint[];
  /** The page's summaries as JSON text. */
  items?: string;
}
