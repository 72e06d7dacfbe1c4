import type { Sql } from '../db.ts';
import { statementFile } from './statement-file.ts';
import { normalizeDomain, reversedDomain, type SearchFilters } from './listing-filters.ts';
import { offsetOf } from './summaries.ts';

/**
 * The statements of a list without q, one per kind of list: read them there, or EXPLAIN one with
 * the text and values browseStatement gives. Each holds only what its kind may run: one statement
 * for every kind (tried first) ran its unexecuted walks, counts and reads as plan nodes that still
 * started and ended, ten times the time of a list few listings match (1.1 against 0.12 ms at 100k).
 */
export const BROWSE_SQL = {
  /** The live list unfiltered. */
  live: statementFile('browse-live'),
  /** The live list by one stage, country or pricing model. */
  facet: statementFile('browse-facet'),
  /** The live list by one category. */
  category: statementFile('browse-category'),
  /** Any other list: several filters, a domain, upcoming listings. */
  matches: statementFile('browse-matches'),
} as const;

/** A list's page, as ids or as its listings' summaries (JSON text), and how many match. */
export interface BrowsePage {
  total: number;
  ids?: bigint[];
  items?: string;
}

/** Which statement answers the list, and its parameters in their order. */
export function browseStatement(siteId: number, f: SearchFilters, page: number, perPage: number, siteUrl: string | null) {
  const bounds = [perPage, offsetOf(page, perPage), siteUrl === null ? null : `${siteUrl}/listings/`];
  const facets = { stage: f.stage ?? null, country: f.country?.toUpperCase() ?? null, pricing: f.pricingModel?.trim().toLowerCase() ?? null };
  const given = [f.category, ...Object.values(facets)].filter((v) => v !== undefined && v !== null).length;
  if (f.status === 'live' && f.domain === undefined && given === 0) return { text: BROWSE_SQL.live, values: [siteId, f.sort, ...bounds] };
  if (f.status === 'live' && f.domain === undefined && given === 1) {
    if (f.category !== undefined) return { text: BROWSE_SQL.category, values: [siteId, f.category, f.sort, ...bounds] };
    const [facet, value] = Object.entries(facets).find(([, v]) => v !== null)!;
    return { text: BROWSE_SQL.facet, values: [siteId, facet, value, f.sort, ...bounds] };
  }
  const domain = f.domain !== undefined ? reversedDomain(normalizeDomain(f.domain)) : null;
  return {
    text: BROWSE_SQL.matches,
    values: [
      siteId,
      f.status === 'upcoming' ? 'scheduled' : 'live',
      f.category ?? null,
      facets.stage,
      facets.country,
      facets.pricing,
      domain?.exact ?? null,
      domain?.subdomains ?? null,
      f.sort,
      ...bounds,
    ],
  };
}

/** A list without q: one run of its statement. */
export async function browsePage(sql: Sql, siteId: number, f: SearchFilters, page: number, perPage: number, siteUrl: string | null) {
  const { text, values } = browseStatement(siteId, f, page, perPage, siteUrl);
  const [row] = await sql.unsafe<BrowsePage[]>(text, values as never[], { prepare: true });
  return row!;
}
