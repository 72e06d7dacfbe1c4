// Categories typed into a draft, by name or by slug, checked against the categories table and
// stored as list_categories names (the spelling the spec gives the draft field, and the one
// listing-sync and the drafters use); answers carry each name's slug beside it.
import type { Sql } from '../../sql/db.ts';
import type { FieldIssue } from '../errors/index.ts';
import { invalidFields } from './draft-errors.ts';

/** How many valid slugs an unknown category's message offers. */
const SUGGESTIONS = 5;

/** Category names as list_categories spells them, from names or slugs (either case); unknown ones
 * are a 400 naming each, with the slugs closest to what was typed. */
export async function canonicalCategories(sql: Sql, names: string[]): Promise<string[]> {
  const wanted = names.map((n) => n.trim()).filter((n) => n !== '');
  if (wanted.length === 0) return [];
  const lowered = wanted.map((n) => n.toLowerCase());
  const rows = await sql<{ lname: string; slug: string; name: string }[]>`
    select distinct on (lower(name)) lower(name) as lname, slug, name from categories
    where lower(name) = any(${lowered}::text[]) or slug = any(${lowered}::text[])
    order by lower(name), (parent_id is not null), position, id`;
  const byName = new Map<string, string>();
  for (const r of rows) byName.set(r.slug, r.name);
  for (const r of rows) byName.set(r.lname, r.name);
  const issues: FieldIssue[] = [];
  for (const [i, n] of wanted.entries()) {
    if (byName.has(n.toLowerCase())) continue;
    const near = await nearestSlugs(sql, n);
    issues.push({
      field: `fields.categories.${i}`,
      message: `"${n}" is not a category name or slug from list_categories${near.length ? `; valid slugs include ${near.join(', ')}` : ''}`,
    });
  }
  if (issues.length) throw invalidFields(issues, 'unknown_category');
  return [...new Set(wanted.map((n) => byName.get(n.toLowerCase())!))];
}

/** The slugs whose name or slug reads most like `typed` (trigram similarity), the tree's first
 * categories when nothing is alike. */
async function nearestSlugs(sql: Sql, typed: string): Promise<string[]> {
  const rows = await sql<{ slug: string }[]>`
    select slug from categories
    order by greatest(similarity(name, ${typed}), similarity(slug, ${typed})) desc, (parent_id is not null), position, id
    limit ${SUGGESTIONS}`;
  return rows.map((r) => r.slug);
}

/** The slug of each category name (as canonicalCategories stores them), in the names' order;
 * null for a name no category has any more. */
export async function categorySlugs(sql: Sql, names: readonly string[]): Promise<(string | null)[]> {
  if (names.length === 0) return [];
  const lowered = names.map((n) => n.toLowerCase());
  const rows = await sql<{ lname: string; slug: string }[]>`
    select distinct on (lower(name)) lower(name) as lname, slug from categories
    where lower(name) = any(${lowered}::text[])
    order by lower(name), (parent_id is not null), position, id`;
  const bySlug = new Map(rows.map((r) => [r.lname, r.slug]));
  return lowered.map((n) => bySlug.get(n) ?? null);
}
