import { heavy, type Sql } from '../db.ts';
import { browsePage } from './browse.ts';
import { normalizeDomain, reversedDomain, type SearchFilters } from './listing-filters.ts';
import { vocabularyOf } from './search-vocabulary.ts';
import { statementFile } from './statement-file.ts';
import { offsetOf, type ListingSummaryRow } from './summaries.ts';
import { planTypoSearch, type TypoPlan } from './typo-plan.ts';

export { normalizeDomain, SEARCH_SORTS, type SearchFilters, type SearchSort } from './listing-filters.ts';

/** The search statement (search.sql): read it there, or EXPLAIN it with its parameters. */
export const SEARCH_SQL = statementFile('search');
/** The search's fallback when no word matches (search-names.sql): names similar to q as a whole. */
export const SEARCH_NAMES_SQL = statementFile('search-names');

/** Free text as compared with names: trimmed, lower case, single spaces. */
const nameText = (q: string) => q.trim().toLowerCase().replace(/\s+/g, ' ');

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

/** The parameters of search-names.sql, in its order: search.sql's $1-$15. */
export function searchParameters(siteId: number, f: SearchFilters & { q: string }, page: number, perPage: number, siteUrl: string | null) {
  const qName = nameText(f.q);
  const domain = f.domain !== undefined ? reversedDomain(normalizeDomain(f.domain)) : null;
  return [
    f.q,
    qName,
    new Set(qName.split(/[^\p{L}\p{N}]+/u).filter(Boolean)).size,
    siteId,
    f.status === 'upcoming' ? 'scheduled' : 'live',
    f.category ?? null,
    f.stage ?? null,
    f.country?.toUpperCase() ?? null,
    f.pricingModel?.trim().toLowerCase() ?? null,
    domain?.exact ?? null,
    domain?.subdomains ?? null,
    f.sort,
    perPage,
    offsetOf(page, perPage),
    siteUrl === null ? null : `${siteUrl}/listings/`,
  ];
}

/** search.sql's $16-$20: q's typo plan. */
export const typoPlanParameters = (plan: TypoPlan) => [plan.terms, plan.near, plan.nearGroup, plan.known, plan.narrowGroup];

/**
 * The page of a list: with q, search.sql (one statement: the page, as ids or with the site's URL as
 * its summaries, and the count), and only when no word matched, search-names.sql (the same, for
 * names similar to q); without q, browse.ts.
 */
async function searchPage(sql: Sql, siteId: number, f: SearchFilters, page: number, perPage: number, siteUrl: string | null) {
  const q = f.q?.trim() ? f.q : undefined;
  if (!q) return browsePage(sql, siteId, f, page, perPage, siteUrl);
  // Text without a letter or digit has no words and no trigrams: it matches nothing.
  if (!/[\p{L}\p{N}]/u.test(q)) return { total: 0, ids: [], items: '[]' };
  const values = searchParameters(siteId, { ...f, q }, page, perPage, siteUrl);
  const vocabulary = vocabularyOf(sql);
  const byWords = async (seen?: string) => {
    const copy = await vocabulary.get(seen);
    const [row] = await heavy(sql.unsafe<Found[]>(SEARCH_SQL, [...values, ...typoPlanParameters(planTypoSearch(copy, q))] as never[], { prepare: true }));
    return { row: row!, planned: copy.generation };
  };
  let found = await byWords();
  // The refresh moved the vocabulary since the copy was read: planned again from a fresh copy, once.
  if (found.row.generation !== found.planned) found = await byWords(found.row.generation);
  if (found.row.total > 0) return found.row;
  const [byName] = await heavy(sql.unsafe<Found[]>(SEARCH_NAMES_SQL, values as never[], { prepare: true }));
  return byName!;
}

/** What the search statements answer: the count, and the page as ids or as summaries. */
interface Found {
  total: number;
  /** search.sql: the vocabulary's generation when it ran. */
  generation?: string;
  ids?: bigint[];
  /** The page's summaries as JSON text. */
  items?: string;
}
