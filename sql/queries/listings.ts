import type { Sql } from '../db.ts';
import { offsetOf } from './summaries.ts';

export const SEARCH_SORTS = ['relevance', 'newest', 'votes', 'trending', 'most_viewed', 'most_followed'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export interface SearchFilters {
  q?: string; category?: string; stage?: string; country?: string; pricingModel?: string; domain?: string;
  status: 'live' | 'upcoming'; sort: SearchSort;
}

/** "https://www.Acme.test:443/x" -> "acme.test": a domain filter accepts a bare host or a URL. */
export function normalizeDomain(raw: string): string {
  return raw.trim().toLowerCase().replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/[/?#].*$/, '')
    .replace(/:\d*$/, '').replace(/\.+$/, '').replace(/^www\./, '');
}

const reversed = (s: string) => [...s].reverse().join('');
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);

/** Free text as compared with names: trimmed, lower case, single spaces. */
const nameText = (q: string) => q.trim().toLowerCase().replace(/\s+/g, ' ');

/** The typo-tolerant tsquery of q (typo_tsquery in SQL: stop words, short terms, swaps). */
const typoQuery = (sql: Sql, q: string) => sql`typo_tsquery(${q})`;

// Counter columns of mv_listing_stats a sort may use (fixed strings, never input).
const STAT = { votes: 's.votes', trending: 's.trending', most_viewed: 's.views', most_followed: 's.follows' } as const;

/**
 * Picks the page of ids with the filters and ranking in SQL, and counts the matches.
 * With q: the matches are collected once (a materialized CTE) and both ranked and counted from it.
 * Without q: counter sorts walk the counter indexes of mv_listing_stats (so the first pages stop
 * early) and a parallel statement counts the matches from the listings indexes.
 */
export async function searchListingIds(sql: Sql, siteId: number, f: SearchFilters, page: number, perPage: number) {
  const q = f.q?.trim() ? f.q : undefined;
  const qName = q ? nameText(q) : '';
  const domain = f.domain !== undefined ? normalizeDomain(f.domain) : undefined;
  const offset = offsetOf(page, perPage);

  const status = f.status === 'upcoming' ? 'scheduled' : 'live';
  const filters = () => sql`
    l.site_id = ${siteId} and l.status = ${status}
    ${f.status === 'upcoming'
      // Upcoming: scheduled for this week or a later one (the week has not passed).
      ? sql`and l.launch_week >= date_trunc('week', now() at time zone 'utc')::date` : sql``}
    ${f.category !== undefined
      // As a semi-join on ids, so both category indexes serve it.
      ? sql`and l.id in (select lc.listing_id from listing_categories lc where lc.category_id in (select id from cat)
                         union select p.id from listings p where p.primary_category_id in (select id from cat) and p.status = ${status})`
      : sql``}
    ${f.stage !== undefined ? sql`and l.stage = ${f.stage}` : sql``}
    ${f.country !== undefined ? sql`and l.country = ${f.country.toUpperCase()}` : sql``}
    ${f.pricingModel !== undefined ? sql`and lower(l.pricing_model) = ${f.pricingModel.trim().toLowerCase()}` : sql``}
    ${domain !== undefined
      // The domain or any subdomain of it (www. included), compared on the reversed name.
      ? sql`and (reverse(lower(l.domain)) = ${reversed(domain)} or reverse(lower(l.domain)) like ${likeEscape(reversed(domain)) + '.%'})`
      : sql``}`;

  // The category and its subcategories (two levels); an unknown slug matches nothing.
  const cat = () => sql`cat as materialized (
      select c.id from categories c where c.slug = ${f.category ?? ''}
      union select ch.id from categories ch join categories p on p.id = ch.parent_id where p.slug = ${f.category ?? ''})`;

  // Newest: most recently launched first; never-launched (upcoming) ones by most recently added.
  const newest = (t: string) => sql`${sql.unsafe(t)}.launched_at desc nulls last, ${sql.unsafe(t)}.id desc`;

  // Text without a letter or digit has no words and no trigrams: it matches nothing.
  if (q && !/[\p{L}\p{N}]/u.test(q)) return { ids: [], total: 0 };
  if (q) {
    const rank = f.sort === 'relevance'
      // Exact name, then name prefix, then text rank plus name similarity; votes break ties.
      ? sql`m.exact desc, m.prefix desc, m.score desc, coalesce(s.votes, 0) desc, `
      : f.sort === 'newest' ? sql`` : sql`coalesce(${sql.unsafe(STAT[f.sort])}, 0) desc, `;
    const [row] = await sql<{ total: number; ids: bigint[] }[]>`
      with ${cat()},
      tq as materialized (select ${typoQuery(sql, q)} as tq),
      m as materialized (
        select l.id, l.launched_at, lower(l.name) = ${qName} as exact, starts_with(lower(l.name), ${qName}) as prefix,
               ts_rank_cd(l.search, (select tq from tq)) + similarity(lower(l.name), ${qName}) as score
        from listings l
        where ${filters()} and (l.search @@ (select tq from tq) or lower(l.name) % ${qName}))
      select (select count(*) from m)::int as total,
             array(select m.id from m left join mv_listing_stats s on s.listing_id = m.id
                   order by ${rank}${newest('m')} limit ${perPage} offset ${offset}) as ids`;
    return { ids: row.ids, total: row.total };
  }

  const stat = sql.unsafe(STAT[f.sort === 'relevance' || f.sort === 'newest' ? 'votes' : f.sort]);
  const ids = f.sort === 'newest'
    ? sql<{ id: bigint }[]>`with ${cat()} select l.id from listings l where ${filters()}
        order by ${newest('l')} limit ${perPage} offset ${offset}`
    : domain !== undefined
    // A domain matches a handful of listings: find them first, then sort.
    ? sql<{ id: bigint }[]>`with ${cat()} select l.id from listings l left join mv_listing_stats s on s.listing_id = l.id
        where ${filters()} order by coalesce(${stat}, 0) desc, ${newest('l')} limit ${perPage} offset ${offset}`
    // Relevance without q is most votes first. Listings added since the last view refresh (about a
    // minute) have no counters yet and join in at the next refresh.
    : sql<{ id: bigint }[]>`with ${cat()} select l.id from mv_listing_stats s join listings l on l.id = s.listing_id
        where s.site_id = ${siteId} and ${filters()}
        order by ${stat} desc, ${newest('l')} limit ${perPage} offset ${offset}`;
  const [rows, [{ total }]] = await Promise.all([
    ids, sql<{ total: number }[]>`with ${cat()} select count(*)::int as total from listings l where ${filters()}`,
  ]);
  return { ids: rows.map((r) => r.id), total };
}
