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
 * Every listing list shows the same summary: ranking queries pick ordered ids, then this hydrates
 * them in one round trip, in the order given. The ids are unnested from a sub-select, not from the
 * bound array itself: a custom plan counts a bound array's elements and a generic plan cannot, so
 * their costs never met and PostgreSQL planned this statement anew on nearly every call (1 ms, four
 * times its execution); read through a sub-select, both plans see the same estimate and the cached
 * one is kept.
 */
export async function listingSummaries(sql: Sql, ids: (number | bigint | string)[], siteUrl: string): Promise<ListingSummaryRow[]> {
  if (ids.length === 0) return [];
  const rows = await sql<ListingSummaryRow[]>`
    select l.id::int as id, l.slug, l.name, l.url, ${siteUrl + '/listings/'} || l.slug as profile_url,
           l.tagline, l.logo_url, l.status, l.plan,
           case when c.id is null then null else json_build_object('slug', c.slug, 'name', c.name) end as category,
           l.pricing_model, l.country, to_char(l.launch_week, 'YYYY-MM-DD') as launch_week,
           to_char(l.launched_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as launched_at,
           coalesce(s.votes, 0)::int as votes, coalesce(s.follows, 0)::int as follows, coalesce(s.views, 0)::int as views
    from unnest((select ${ids.map(String)}::bigint[])) with ordinality as ids(id, ord)
    join listings l on l.id = ids.id
    left join categories c on c.id = l.primary_category_id
    left join listing_stats s on s.listing_id = l.id
    order by ids.ord`;
  return rows;
}

/** A whole number written into a statement's text rather than bound (see pageBounds). */
export function literalInt(sql: Sql, n: number) {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a whole number: ${n}`);
  return sql.unsafe(String(n));
}

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
