// Categories typed into a draft, by name or by slug, checked against the categories table and
// stored as list_categories names (the spelling listing-sync and the drafters use).
import type { Sql } from '../../sql/db.ts';
import type { FieldIssue } from '../errors/index.ts';
import { invalidFields } from './draft-errors.ts';

/** Category names as list_categories spells them, from names or slugs; unknown ones are a 400 naming each. */
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
  wanted.forEach((n, i) => {
    if (!byName.has(n.toLowerCase())) issues.push({ field: `fields.categories.${i}`, message: `"${n}" is not a category name or slug from list_categories` });
  });
  if (issues.length) throw invalidFields(issues, 'unknown_category');
  return [...new Set(wanted.map((n) => byName.get(n.toLowerCase())!))];
}
