import { afterAll, beforeAll, expect, test } from 'bun:test';
import { freshDatabase } from '../test/db.ts';

// What every migration keeps true (DESIGN.md conventions): each foreign key says what deleting its
// target does, and each of our functions and tables says what it is for.
let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db.drop());

test('every foreign key has an explicit on delete', async () => {
  // confdeltype 'a' is "no action", the default when a key says nothing.
  const keys = await db.sql<{ key: string }[]>`
    select conrelid::regclass::text || '.' || conname as key from pg_constraint
    where contype = 'f' and connamespace = 'public'::regnamespace and confdeltype = 'a' order by 1`;
  expect(keys.map((k) => k.key)).toEqual([]);
});

test('every function and table in the public schema has a comment', async () => {
  // Extensions' functions (pg_trgm, unaccent) are theirs to document.
  const functions = await db.sql<{ fn: string }[]>`
    select p.oid::regprocedure::text as fn from pg_proc p
    where p.pronamespace = 'public'::regnamespace and obj_description(p.oid, 'pg_proc') is null
      and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
    order by 1`;
  expect(functions.map((f) => f.fn)).toEqual([]);
  const tables = await db.sql<{ tbl: string }[]>`
    select c.relname as tbl from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and obj_description(c.oid, 'pg_class') is null
    order by 1`;
  expect(tables.map((t) => t.tbl)).toEqual([]);
});
