// Category names typed into a draft, checked against the categories table.
import type { Sql } from '../../sql/db.ts';
import type { FieldIssue } from '../errors/index.ts';
import { invalidFields } from './draft-errors.ts';

/** Category names as list_categories spells them; unknown names are a 400 naming each. */
export async function canonicalCategories(sql: Sql, names: string[]): Promise<string[]> {
  const wanted = names.map((n) => n.trim()).filter((n) => n !== '');
  if (wanted.length === 0) return [];
  const rows = await sql<{ lname: string; name: string }[]>`
    select distinct on (lower(name)) lower(name) as lname, name from categories
    where lower(name) = any(${wanted.map((n) => n.toLowerCase())}::text[])
    order by lower(name), (parent_id is not null), position, id`;
  const byName = new Map(rows.map((r) => [r.lname, r.name]));
  const issues: FieldIssue[] = [];
  wanted.forEach((n, i) => {
    if (!byName.has(n.toLowerCase())) issues.push({ field: `fields.categories.${i}`, message: `"${n}" is not a category name from list_categories` });
  });
  if (issues.length) throw invalidFields(issues, 'unknown_category');
  return [...new Set(wanted.map((n) => byName.get(n.toLowerCase())!))];
}
