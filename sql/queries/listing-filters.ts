import { EMPTY, raw, type Statement, stmt } from '../statement.ts';
import { wholeNumber } from './summaries.ts';

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

/** A domain filter as compared on the reversed domain: the domain itself, and a LIKE pattern for its subdomains. */
export const reversedDomain = (domain: string) => ({ exact: reversed(domain), subdomains: likeEscape(reversed(domain)) + '.%' });

// Counter columns of listing_stats a sort may use (fixed strings, never input).
// trend_log orders as the trending score does (see trending_now); -infinity is "no votes".
export const STAT = { votes: 's.votes', trending: 's.trend_log', most_viewed: 's.views', most_followed: 's.follows' } as const;
/** A counter's value for a listing with no counters yet (added since the last refresh). */
export const NONE = { votes: '0', trending: "'-infinity'::float8", most_viewed: '0', most_followed: '0' } as const;
/** Newest: most recently launched first; never-launched (upcoming) ones by most recently added. */
export const newestOf = (t: string) => `${t}.launched_at desc nulls last, ${t}.id desc`;

/**
 * How a list's filters are written: the conditions on a listings row `l`, and the CTE `cat` (the
 * category filter's category and its subcategories, two levels; an unknown slug matches nothing).
 */
export function listingFilters(siteId: number, f: SearchFilters) {
  const domain = f.domain !== undefined ? normalizeDomain(f.domain) : undefined;
  const status = f.status === 'upcoming' ? 'scheduled' : 'live';
  /** The category's and its subcategories' listings, by their tags or primary category. */
  const inCategory = (perRow: boolean) =>
    perRow
      ? // Probed for each row (offset 0: never a hash of every tag of the category): a search's matches,
        // the rows a walk reads, the listings changed since the last refresh. A top category's tags
        // hashed for a search that matched a handful took 110 ms at a million listings.
        stmt`and (l.primary_category_id in (select id from cat)
               or exists (select from listing_categories lc where lc.listing_id = l.id and lc.category_id in (select id from cat) offset 0))`
      : // As a semi-join on ids, so both category indexes serve it.
        stmt`and l.id in (select lc.listing_id from listing_categories lc where lc.category_id in (select id from cat)
                         union select p.id from listings p where p.primary_category_id in (select id from cat) and p.status = ${status})`;
  // The stage, country and pricing model as compared (and as listing_facet_counts keeps them).
  const facetValue = { stage: f.stage ?? null, country: f.country?.toUpperCase() ?? null, pricing: f.pricingModel?.trim().toLowerCase() ?? null };
  return {
    domain,
    /** The CTE fv: the filters' stage, country and pricing model as a row (filters' fromRow). */
    facetValues: (): Statement =>
      stmt`fv as (select ${facetValue.stage}::text as stage, ${facetValue.country}::text as country, ${facetValue.pricing}::text as pricing)`,
    /**
     * literal: the site and status written into the statement rather than bound. Text search plans
     * are cached generically, and a generic plan cannot see that they select nearly every row: it ANDs
     * the exact GIN bitmap with an 85k-entry (site_id, status) bitmap, a few ms per request for nothing.
     * category: how the category filter is checked ('none': left to the caller).
     * fromRow: the stage, country and pricing model read from the CTE fv (facetValues), not bound:
     * a plan that sees the value costs a rare one at nothing, so the statement's cached plan was
     * never kept and every call planned anew (half its time).
     */
    filters: (literal = false, category: 'set' | 'row' | 'none' = 'set', fromRow = false) => stmt`
    ${literal ? stmt`l.site_id = ${raw(wholeNumber(siteId))} and l.status = ${raw(`'${status}'`)}` : stmt`l.site_id = ${siteId} and l.status = ${status}`}
    ${
      f.status === 'upcoming'
        ? // Upcoming: scheduled for this week or a later one (the week has not passed).
          raw(`and l.launch_week >= date_trunc('week', now() at time zone 'utc')::date`)
        : EMPTY
    }
    ${f.category !== undefined && category !== 'none' ? inCategory(category === 'row') : EMPTY}
    ${f.stage !== undefined ? (fromRow ? raw('and l.stage = (select fv.stage from fv)') : stmt`and l.stage = ${f.stage}`) : EMPTY}
    ${f.country !== undefined ? (fromRow ? raw('and l.country = (select fv.country from fv)') : stmt`and l.country = ${facetValue.country}`) : EMPTY}
    ${
      f.pricingModel !== undefined
        ? fromRow
          ? raw('and lower(l.pricing_model) = (select fv.pricing from fv)')
          : stmt`and lower(l.pricing_model) = ${facetValue.pricing}`
        : EMPTY
    }
    ${
      domain !== undefined
        ? // The domain or any subdomain of it (www. included), compared on the reversed name.
          stmt`and (reverse(lower(l.domain)) = ${reversed(domain)} or reverse(lower(l.domain)) like ${likeEscape(reversed(domain)) + '.%'})`
        : EMPTY
    }`,
    cat: (): Statement => stmt`cat as materialized (
      select c.id from categories c where c.slug = ${f.category ?? ''}
      union select ch.id from categories ch join categories p on p.id = ch.parent_id where p.slug = ${f.category ?? ''})`,
  };
}
