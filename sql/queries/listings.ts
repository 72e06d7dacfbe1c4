import type { Sql } from '../db.ts';
import { EMPTY, raw, run, type Statement, stmt } from '../statement.ts';
import type { SearchVocabulary } from './search-vocabulary.ts';
import { exactListingCount } from './listing-counts.ts';
import { offsetOf, summariesOf, wholeNumber, type ListingSummaryRow } from './summaries.ts';
import { planTypoSearch, type TypoPlan } from './typo-plan.ts';

export const SEARCH_SORTS = ['relevance', 'newest', 'votes', 'trending', 'most_viewed', 'most_followed'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export interface SearchFilters {
  q?: string;
  category?: string;
  stage?: string;
  country?: string;
  pricingModel?: string;
  domain?: string;
  status: 'live' | 'upcoming';
  sort: SearchSort;
}

/** "https://www.Acme.test:443/x" -> "acme.test": a domain filter accepts a bare host or a URL. */
export function normalizeDomain(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d*$/, '')
    .replace(/\.+$/, '')
    .replace(/^www\./, '');
}

const reversed = (s: string) => [...s].reverse().join('');
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);

/** Free text as compared with names: trimmed, lower case, single spaces. */
const nameText = (q: string) => q.trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * The typo-tolerant tsqueries of q (typo_tsqueries in SQL: stop words, short terms, swaps): ranked
 * scores, matched finds (the same listings, with prefixes spelled out where GIN can skip faster).
 * Planned by the edge from its copy of the vocabulary when it has one (typo-plan.ts), with the
 * vocabulary's version beside them: a plan made from another version is not the statement's.
 */
const typoQueries = (q: string, plan: TypoPlan | null) =>
  plan === null
    ? stmt`select ranked, matched, narrow, null::text as vocabulary from typo_tsqueries(${q})`
    : stmt`select t.ranked, t.matched, t.narrow, (select v.version::text from search_vocabulary v) as vocabulary
          from typo_tsqueries_planned(${plan.terms}::text[], ${plan.near}::text[], ${plan.nearGroup}::int[], ${plan.known}::text[], ${plan.narrowGroup}::int) t`;

/** Matches from which relevance reads a large tie at the page's end by walking the votes order. */
const TIES_AT = 500;

// Counter columns of listing_stats a sort may use (fixed strings, never input).
// trend_log orders as the trending score does (see trending_now); -infinity is "no votes".
const STAT = { votes: 's.votes', trending: 's.trend_log', most_viewed: 's.views', most_followed: 's.follows' } as const;
/** A counter's value for a listing with no counters yet (added since the last refresh). */
const NONE = { votes: '0', trending: "'-infinity'::float8", most_viewed: '0', most_followed: '0' } as const;

/**
 * A counter of one row of table alias t, looked up by primary key: a handful of index probes for
 * the usual few hundred matches, where a join would hash all of listing_stats.
 */
const counterOf = (col: keyof typeof STAT, t: string) => `coalesce((select ${STAT[col]} from listing_stats s where s.listing_id = ${t}.id), ${NONE[col]})`;
/** Newest: most recently launched first; never-launched (upcoming) ones by most recently added. */
const newestOf = (t: string) => `${t}.launched_at desc nulls last, ${t}.id desc`;

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
export async function searchListingsJson(
  sql: Sql,
  siteId: number,
  f: SearchFilters,
  page: number,
  perPage: number,
  siteUrl: string,
  vocabulary?: SearchVocabulary,
) {
  const { items, total } = await searchPage(sql, siteId, f, page, perPage, siteUrl, vocabulary);
  return { itemsJson: items ?? '[]', total };
}

/** The page of a search as ids, and the count of every match. */
export async function searchListingIds(sql: Sql, siteId: number, f: SearchFilters, page: number, perPage: number, vocabulary?: SearchVocabulary) {
  const { ids, total } = await searchPage(sql, siteId, f, page, perPage, null, vocabulary);
  return { ids: ids ?? [], total };
}

/**
 * Picks the page of ids with the filters and ranking in SQL, and counts the matches; given the
 * site's URL, the page comes as its listings' summaries from the same statement (one round trip).
 * With q: the matches are collected once (a materialized CTE: one pass over the GIN bitmap's rows)
 * and both counted and ordered from it, so total is exact; counters are looked up only for the
 * rows that can reach the page.
 * Without q: one statement counts the matches, then either walks the sort's index (many matches:
 * the first pages stop early) or sorts the matches themselves (few, or upcoming ones).
 */
async function searchPage(
  sql: Sql,
  siteId: number,
  f: SearchFilters,
  page: number,
  perPage: number,
  siteUrl: string | null,
  vocabulary: SearchVocabulary | undefined,
) {
  const q = f.q?.trim() ? f.q : undefined;
  const qName = q ? nameText(q) : '';
  const domain = f.domain !== undefined ? normalizeDomain(f.domain) : undefined;
  const offset = offsetOf(page, perPage);

  const status = f.status === 'upcoming' ? 'scheduled' : 'live';
  // literal: the site and status written into the statement rather than bound. Text search plans
  // are cached generically, and a generic plan cannot see that they select nearly every row: it ANDs
  // the exact GIN bitmap with an 85k-entry (site_id, status) bitmap, a few ms per request for nothing.
  const filters = (literal = false) => stmt`
    ${literal ? stmt`l.site_id = ${raw(wholeNumber(siteId))} and l.status = ${raw(`'${status}'`)}` : stmt`l.site_id = ${siteId} and l.status = ${status}`}
    ${
      f.status === 'upcoming'
        ? // Upcoming: scheduled for this week or a later one (the week has not passed).
          raw(`and l.launch_week >= date_trunc('week', now() at time zone 'utc')::date`)
        : EMPTY
    }
    ${
      f.category !== undefined
        ? // As a semi-join on ids, so both category indexes serve it.
          stmt`and l.id in (select lc.listing_id from listing_categories lc where lc.category_id in (select id from cat)
                         union select p.id from listings p where p.primary_category_id in (select id from cat) and p.status = ${status})`
        : EMPTY
    }
    ${f.stage !== undefined ? stmt`and l.stage = ${f.stage}` : EMPTY}
    ${f.country !== undefined ? stmt`and l.country = ${f.country.toUpperCase()}` : EMPTY}
    ${f.pricingModel !== undefined ? stmt`and lower(l.pricing_model) = ${f.pricingModel.trim().toLowerCase()}` : EMPTY}
    ${
      domain !== undefined
        ? // The domain or any subdomain of it (www. included), compared on the reversed name.
          stmt`and (reverse(lower(l.domain)) = ${reversed(domain)} or reverse(lower(l.domain)) like ${likeEscape(reversed(domain)) + '.%'})`
        : EMPTY
    }`;

  // The category and its subcategories (two levels); an unknown slug matches nothing.
  const cat = () => stmt`cat as materialized (
      select c.id from categories c where c.slug = ${f.category ?? ''}
      union select ch.id from categories ch join categories p on p.id = ch.parent_id where p.slug = ${f.category ?? ''})`;

  const newest = (t: string) => raw(newestOf(t));

  // Text without a letter or digit has no words and no trigrams: it matches nothing.
  if (q && !/[\p{L}\p{N}]/u.test(q)) return { ids: [], items: '[]', total: 0 };
  if (q) {
    // A score only for relevance: ts_rank (not the cover-density ts_rank_cd) over search_rank, the
    // small name/tagline/keywords vector, so no large description vector is read or detoasted.
    const relevance = f.sort === 'relevance';
    const score = (byName: boolean) =>
      !relevance ? raw('0::real') : byName ? stmt`similarity(lower(l.name), ${qName})` : raw('ts_rank(l.search_rank, (select ranked from tq))');
    // name: 2 = the name is q, 1 = it starts with q, 0 = neither (lower() runs twice only on prefixes).
    const match = (byName: boolean) => stmt`l.id, l.launched_at, ${score(byName)} as score,
      case when starts_with(lower(l.name), ${qName}) then case when lower(l.name) = ${qName} then 2 else 1 end else 0 end as name`;
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
    // With tq: the vocabulary version its plan was checked against. walk: with the tiers (TIES_AT).
    const vocabularyOf = (tq: boolean) => raw(tq ? '(select tq.vocabulary from tq)' : 'null::text');
    const pageOf = (m: Statement, tq = false, walk = walkTies) =>
      run<Found>(
        sql,
        walk
          ? stmt`
      with ${cat()}, ${m}, ${bounds}, ${TIERS}
      select (select n.n from n)::int as total, ${vocabularyOf(tq)} as vocabulary,
             ${out(stmt`case when (select n.n from n) < ${TIES_AT} then array(${ordered} ${pageWindow})
                  else array(${WALKED} ${pageWindow}) end`)}`
          : stmt`
      with ${cat()}, ${m}, ${bounds}
      select (select count(*) from m)::int as total, ${vocabularyOf(tq)} as vocabulary,
             ${out(stmt`array(${ordered} ${pageWindow})`)}`,
      );
    // The GIN index answers the tsquery exactly; the heap row gives the filters and the order. When
    // one term's group is far rarer than another's (narrow), the index finds that group alone and
    // each of its few listings is checked against the whole query (ts_match_vq: @@ the index cannot
    // take over), the same rows without the index intersecting the rare group with a large one.
    // A plan that bounds the matches under TIES_AT leaves the tiers out: the statement without them
    // is the same page (the tiers only find it sooner among many), and a statement's unexecuted
    // nodes still cost their start and end (about a tenth of a long-tail search's database time).
    const byWords = (plan: TypoPlan | null) =>
      pageOf(
        stmt`tq as materialized (${typoQueries(q, plan)}),
      m as materialized (select ${match(false)} from listings l where ${filters(true)}
        and l.search @@ (select coalesce(tq.narrow, tq.matched) from tq)
        and ((select tq.narrow from tq) is null or ts_match_vq(l.search, (select tq.matched from tq))))`,
        true,
        walkTies && !(plan?.matchesAtMost != null && plan.matchesAtMost < TIES_AT),
      );
    const copy = vocabulary?.current() ?? null;
    const plan = copy === null ? null : planTypoSearch(copy, q);
    let [row] = await byWords(plan);
    if (plan !== null && row!.vocabulary !== plan.version) {
      // The vocabulary moved since the copy was read: this search asks the database, and so do
      // later ones until the copy loaded now is in.
      void vocabulary!.moved();
      [row] = await byWords(null);
    }
    if (row.total === 0) {
      // Only when no words match: names similar to q as a whole (run-together or badly misspelt
      // names). A statement of its own, run only then: estimating `%` for a plan compares q with the
      // sampled names, which was over half of the search statement's planning time.
      [row] = await pageOf(stmt`m as materialized (select ${match(true)} from listings l where ${filters(true)} and lower(l.name) % ${qName})`);
    }
    return row!;
  }

  const statKey = f.sort === 'relevance' || f.sort === 'newest' ? 'votes' : f.sort;
  const stat = raw(STAT[statKey]);
  // The page's bounds written in (a walk's plan is only right for a known small limit): a plan per page shape.
  const bounds = raw(offset > 0 ? `limit ${wholeNumber(perPage)} offset ${wholeNumber(offset)}` : `limit ${wholeNumber(perPage)}`);
  // Two ways to the page. A walk reads the sort's index in order and keeps the matches: about
  // k x N / n entries for n matches spread over N listings. A sort reads the n matches from the
  // filters' indexes and orders them, counters looked up per match. A filter matching few listings
  // (a rare country, a pricing model no one uses) made the walk read the whole directory (1 s at
  // 100k for none), so the statement counts the matches first and walks only when n^2 >= 4 x k x N.
  // Upcoming listings are never walked: not launched, their counters sit together at the end.
  // A domain matches a handful of listings: always sorted.
  const walk =
    f.sort === 'newest'
      ? stmt`select l.id from listings l where ${filters(true)} order by ${newest('l')} ${bounds}`
      : // Relevance without q is most votes first. Listings added since the last view refresh (about a
        // minute) have no counters yet and join in at the next refresh.
        stmt`select l.id from listing_stats s join listings l on l.id = s.listing_id
        where s.site_id = ${raw(wholeNumber(siteId))} and ${filters(true)} order by ${stat} desc, ${newest('l')} ${bounds}`;
  // offset 0 keeps the sort off the order's index. A listing without counters yet is left out, as the
  // walk's join leaves it; on a domain's few listings (never walked) it counts as zero, as it always has.
  const sorted =
    f.sort === 'newest'
      ? stmt`select x.id from (select l.id, l.launched_at from listings l where ${filters(true)} offset 0) x order by ${newest('x')} ${bounds}`
      : stmt`select x.id from (select l.id, l.launched_at, (select ${stat} from listing_stats s where s.listing_id = l.id) as c
          from listings l where ${filters(true)} offset 0) x
          ${domain === undefined ? raw('where x.c is not null order by x.c desc') : raw(`order by coalesce(x.c, ${NONE[statKey]}) desc`)}, ${newest('x')} ${bounds}`;
  const walks = f.status === 'live' && domain === undefined;
  const ids = walks ? stmt`case when (select c.walk from choice c) then array(${walk}) else array(${sorted}) end` : stmt`array(${sorted})`;
  const choice = walks
    ? raw(`, choice as (select (select n.n from n)::float8 ^ 2 >= ${wholeNumber(4 * (offset + perPage))} * greatest(coalesce((
        select sum(c.listings) from listing_counts c where c.site_id = ${wholeNumber(siteId)}), 0), 1) as walk)`)
    : EMPTY;
  // The site's live listings with no other filter, the most asked list, counted without reading them.
  const unfiltered =
    f.status === 'live' && f.category === undefined && f.stage === undefined && f.country === undefined && f.pricingModel === undefined && domain === undefined;
  const count = unfiltered ? raw(`select ${exactListingCount(siteId, 'live')} as n`) : stmt`select count(*)::int as n from listings l where ${filters(true)}`;
  const [row] = await run<Found>(
    sql,
    stmt`with ${cat()}, n as (${count})${choice}
      select (select n.n from n) as total, ${siteUrl === null ? stmt`${ids} as ids` : stmt`${summariesOf(ids, siteUrl)}::text as items`}`,
  );
  return row!;
}

/** What a search statement answers: the count, and the page as ids or as summaries. */
interface Found {
  total: number;
  /** The vocabulary version a planned search was checked against (null otherwise). */
  vocabulary: string | null;
  ids?: bigint[];
  /** The page's summaries as JSON text. */
  items?: string;
}
