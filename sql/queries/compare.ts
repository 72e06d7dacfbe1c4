import type { Sql } from '../db.ts';

export type Cell = string | number | boolean | unknown[] | Record<string, unknown> | null;
export interface CompareRow {
  key: string;
  label: string;
  source: 'category' | 'listing';
  a: Cell;
  b: Cell;
}

interface Side {
  side: 'a' | 'b';
  id: number;
  attributes: Record<string, unknown>;
  category_attributes: unknown[];
  pricing_model: string | null;
  country: string | null;
  founded_year: number | null;
  stage: string | null;
  votes: number;
  rating_avg: number | null;
  rating_count: number;
}

/** The two live listings of this site named by the slugs, by side; a side is missing when unknown. */
export async function compareSides(sql: Sql, siteId: number, a: string, b: string) {
  const rows = await sql<Side[]>`
    select x.side, l.id::int as id, l.attributes, coalesce(c.attributes, '[]'::jsonb) as category_attributes,
           l.pricing_model, l.country, l.founded_year, l.stage,
           coalesce(s.votes, 0)::int as votes, s.rating_avg, coalesce(s.rating_count, 0)::int as rating_count
    from (values ('a', ${a}::text), ('b', ${b}::text)) as x(side, slug)
    join listings l on l.site_id = ${siteId} and l.slug = x.slug and l.status = 'live'
    left join categories c on c.id = coalesce(l.primary_category_id,
      (select lc.category_id from listing_categories lc where lc.listing_id = l.id and lc.is_primary))
    left join listing_stats s on s.listing_id = l.id`;
  return { a: rows.find((r) => r.side === 'a'), b: rows.find((r) => r.side === 'b') };
}

/** An empty value (blank string, empty array or object) is no fact: the cell is null. */
export function cell(v: unknown): Cell {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v.trim() === '' ? null : v;
  if (Array.isArray(v)) return v.length === 0 ? null : v;
  if (typeof v === 'object') return Object.keys(v).length === 0 ? null : (v as Record<string, unknown>);
  return v as number | boolean;
}

const FACTS: { key: string; label: string; of: (s: Side) => unknown }[] = [
  { key: 'pricing_model', label: 'Pricing model', of: (s) => s.pricing_model },
  { key: 'country', label: 'Country', of: (s) => s.country },
  { key: 'founded_year', label: 'Founded', of: (s) => s.founded_year },
  { key: 'stage', label: 'Stage', of: (s) => s.stage },
  { key: 'votes', label: 'Community votes', of: (s) => s.votes },
  { key: 'community_rating', label: 'Community rating (genuine reviews, 1-5)', of: (s) => s.rating_avg },
  { key: 'community_rating_count', label: 'Genuine reviews', of: (s) => s.rating_count },
];

/**
 * The side-by-side rows: the attributes of a's primary category in their order, then those of b's
 * not already shown, then the listing facts. An attribute keyed like a listing fact is shown once,
 * as the fact (the listing's own column is the source). Each row is shown even when both cells are empty.
 */
export function compareRows(a: Side, b: Side): CompareRow[] {
  const rows: CompareRow[] = [];
  const seen = new Set<string>(FACTS.map((f) => f.key));
  for (const attr of [...a.category_attributes, ...b.category_attributes]) {
    const { key, label } = (attr ?? {}) as { key?: unknown; label?: unknown };
    if (typeof key !== 'string' || key === '' || seen.has(key)) continue;
    seen.add(key);
    rows.push({ key, label: typeof label === 'string' && label ? label : key, source: 'category', a: cell(a.attributes[key]), b: cell(b.attributes[key]) });
  }
  for (const f of FACTS) {
    rows.push({ key: f.key, label: f.label, source: 'listing', a: cell(f.of(a)), b: cell(f.of(b)) });
  }
  return rows;
}
