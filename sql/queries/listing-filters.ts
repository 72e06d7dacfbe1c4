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
