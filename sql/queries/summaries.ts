import type { Sql } from '../db.ts';

export interface ListingSummaryRow {
  id: number;
  slug: string;
  name: string;
  url: string;
  profile_url: string;
  tagline: string | null;
  logo_url: string | null;
  status: string;
  plan: string;
  category: { slug: string; name: string } | null;
  pricing_model: string | null;
  country: string | null;
  launch_week: string | null;
  launched_at: string | null;
  votes: number;
  follows: number;
  views: number;
}

/**
 * A summary's members in order, each with its SQL over l (the listing), c (its primary category) and
 * s (its counters); PROFILE_URL stands for the site's listing URL, bound. The JSON form
 * (listing_summaries in sql/functions/50_summaries.sql) lists the same; summaries.test.ts holds them equal.
 */
const MEMBERS: [string, string][] = [
  ['id', 'l.id::int'],
  ['slug', 'l.slug'],
  ['name', 'l.name'],
  ['url', 'l.url'],
  ['profile_url', 'PROFILE_URL || l.slug'],
  ['tagline', 'l.tagline'],
  ['logo_url', 'l.logo_url'],
  ['status', 'l.status'],
  ['plan', 'l.plan'],
  ['category', "case when c.id is null then null else json_build_object('slug', c.slug, 'name', c.name) end"],
  ['pricing_model', 'l.pricing_model'],
  ['country', 'l.country'],
  ['launch_week', "to_char(l.launch_week, 'YYYY-MM-DD')"],
  ['launched_at', `to_char(l.launched_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`],
  ['votes', 'coalesce(s.votes, 0)::int'],
  ['follows', 'coalesce(s.follows, 0)::int'],
  ['views', 'coalesce(s.views, 0)::int'],
];
const [COLUMNS_BEFORE, COLUMNS_AFTER] = MEMBERS.map(([k, e]) => `${e} as ${k}`)
  .join(', ')
  .split('PROFILE_URL');
const JOINS = `join listings l on l.id = ids.id
    left join categories c on c.id = l.primary_category_id
    left join listing_stats s on s.listing_id = l.id`;

/**
 * Every listing list shows the same summary: ranking queries pick ordered ids, then this hydrates
 * them in one round trip, in the order given. The ids are unnested from a sub-select, not from the
 * bound array itself: a custom plan counts a bound array's elements and a generic plan cannot, so
 * their costs never met and PostgreSQL planned this statement anew on nearly every call (1 ms, four
 * times its execution); read through a sub-select, both plans see the same estimate and the cached
 * one is kept.
 */
export async function listingSummaries(sql: Sql, ids: (number | bigint | string)[], siteUrl: string): Promise<ListingSummaryRow[]> {
  if (ids.length === 0) return [];
  return sql<ListingSummaryRow[]>`
    select ${sql.unsafe(COLUMNS_BEFORE)}${siteUrl + '/listings/'}::text${sql.unsafe(COLUMNS_AFTER)}
    from unnest((select ${ids.map(String)}::bigint[])) with ordinality as ids(id, ord)
    ${sql.unsafe(JOINS)}
    order by ids.ord`;
}

/** A whole number as the text written into a statement rather than bound (see pageBounds). */
export function wholeNumber(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a whole number: ${n}`);
  return String(n);
}

export const literalInt = (sql: Sql, n: number) => sql.unsafe(wholeNumber(n));

/**
 * LIMIT and OFFSET written into a statement as numbers, for a statement whose plan is a walk that
 * only a known small limit justifies. Bound, they are costed exactly in a custom plan and at a tenth
 * of the rows in a generic one, so PostgreSQL plans such a statement anew on every call; written in,
 * the plan is cached per page shape (a handful: most reads are of a first page). Any other bound
 * value the custom plans see better than a generic one (a site id) does the same, so such a
 * statement writes those in as well (literalInt), leaving nothing to plan for.
 */
export function pageBounds(sql: Sql, limit: number, offset: number) {
  return offset > 0 ? sql`limit ${literalInt(sql, limit)} offset ${literalInt(sql, offset)}` : sql`limit ${literalInt(sql, limit)}`;
}

/** Paging arithmetic shared by every list operation. */
export const offsetOf = (page: number, perPage: number) => (page - 1) * perPage;
export const pageInfo = (page: number, perPage: number, total: number) => ({ page, per_page: perPage, total, has_more: page * perPage < total });
