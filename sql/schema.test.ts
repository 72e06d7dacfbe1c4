import { afterAll, beforeAll, expect, test } from 'bun:test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshDatabase } from '../test/db.ts';
import { migrate } from './migrate.ts';
import { dumpSchema } from './schema-dump.ts';

// sql/schema.sql is today's schema, read from a freshly migrated database (sql/schema-dump.ts);
// `npm run schema:dump` writes it again after a migration or a change in sql/functions.
// Functions, views and triggers are defined in sql/functions, which migrate applies after the
// migrations: a migration that defined one of them again would be undone by its file.

const schemaFile = join(import.meta.dirname, 'schema.sql');
const functionsDir = join(import.meta.dirname, 'functions');
const migrationsDir = join(import.meta.dirname, 'migrations');
/** The migrations written before sql/functions held the definitions (they restate them, and are undone by the files). */
const before = (file: string) => file < '0029' || file.startsWith('0055_');

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db.drop());

const defined = () => {
  const text = readdirSync(functionsDir)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => readFileSync(join(functionsDir, f), 'utf8'))
    .join('\n');
  const all = (re: RegExp) => [...text.matchAll(re)].map((m) => m[1]!.toLowerCase());
  return {
    functions: all(/create or replace function (?:public\.)?(\w+)\(/gi),
    views: all(/create or replace view (?:public\.)?(\w+)/gi),
    triggers: all(/create or replace trigger (\w+ .*? on (?:public\.)?\w+)/gi).map((t) => t.replace(/^(\w+) .* on (?:public\.)?(\w+)$/, '$1 on $2')),
  };
};

test('the schema of a freshly migrated database is sql/schema.sql', async () => {
  const now = await dumpSchema(db.sql);
  if (process.env.UPDATE_SCHEMA === '1') writeFileSync(schemaFile, now);
  // Compared as lines, so a difference reads as one.
  expect(now.split('\n')).toEqual(readFileSync(schemaFile, 'utf8').split('\n'));
});

test('every function, view and trigger is defined in sql/functions, and no later migration defines one again', async () => {
  const files = defined();
  const functions = await db.sql<{ name: string }[]>`
    select distinct p.proname as name from pg_proc p
    where p.pronamespace = 'public'::regnamespace and not exists (select from pg_depend d where d.objid = p.oid and d.deptype = 'e')`;
  const views = await db.sql<{ name: string }[]>`select c.relname as name from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'v'`;
  const triggers = await db.sql<{ name: string }[]>`
    select t.tgname || ' on ' || c.relname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where c.relnamespace = 'public'::regnamespace and not t.tgisinternal`;
  const missing = (names: { name: string }[], inFiles: string[]) => names.map((r) => r.name).filter((n) => !inFiles.includes(n));
  expect({ functions: missing(functions, files.functions), views: missing(views, files.views), triggers: missing(triggers, files.triggers) }).toEqual({
    functions: [],
    views: [],
    triggers: [],
  });
  expect(files.functions.length).toBeGreaterThan(40);
  const held = new Set([...files.functions, ...files.views, ...files.triggers.map((t) => t.split(' ')[0]!)]);
  const restated = readdirSync(migrationsDir)
    .filter((f) => f.endsWith('.sql') && !before(f))
    .flatMap((f) =>
      [...readFileSync(join(migrationsDir, f), 'utf8').matchAll(/create\s+(?:or\s+replace\s+)?(?:function|view|trigger)\s+(?:public\.)?(\w+)/gi)]
        .map((m) => m[1]!.toLowerCase())
        .filter((name) => held.has(name))
        .map((name) => `${f}: ${name} (edit its sql/functions file instead)`),
    );
  expect(restated).toEqual([]);
});

test('migrate applies sql/functions again when they differ from what it applied last', async () => {
  const original = (await db.sql<{ def: string }[]>`select pg_get_functiondef('words_of(text[])'::regprocedure) as def`)[0]!.def;
  const [{ at }] = await db.sql<{ at: Date }[]>`select applied_at as at from schema_functions`;
  // Nothing changed: nothing is applied again.
  await migrate(db.sql, db.url);
  expect((await db.sql<{ at: Date }[]>`select applied_at as at from schema_functions`)[0]!.at).toEqual(at);
  // A definition changed by hand and the files' hash forgotten (as after editing a file): the file's comes back.
  await db.sql.unsafe(`create or replace function words_of(text[]) returns text language sql immutable as $$ select 'changed' $$`);
  await db.sql`update schema_functions set hash = 'another'`;
  await migrate(db.sql, db.url);
  expect((await db.sql<{ def: string }[]>`select pg_get_functiondef('words_of(text[])'::regprocedure) as def`)[0]!.def).toBe(original);
});
