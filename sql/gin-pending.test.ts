import { afterAll, beforeAll, expect, test } from 'bun:test';
import { freshDatabase } from '../test/db.ts';
import { makeListing } from '../test/builders.ts';
import { ensureSite } from './site.ts';

// Every search reads its GIN index's pending list in full until the list is merged (migration
// 0020): with fastupdate off there is none, and new entries go straight into the index.

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
}, 60_000);
afterAll(() => db.drop());

const ginIndexes = () =>
  db.sql<{ name: string; options: string[] | null }[]>`
    select c.relname as name, c.reloptions as options from pg_class c
    join pg_am a on a.oid = c.relam and a.amname = 'gin'
    where c.relkind = 'i' and c.relnamespace = current_schema()::regnamespace order by 1`;

test('every GIN index of the schema writes straight into the index, with no pending list', async () => {
  const indexes = await ginIndexes();
  // The searches' own: words, names and taglines of listings, founders' names, the blog.
  expect(indexes.map((i) => i.name)).toEqual(expect.arrayContaining(['listings_search', 'listings_name_trgm', 'listings_tagline_trgm', 'founders_name_trgm']));
  for (const i of indexes) expect({ index: i.name, options: i.options }).toEqual({ index: i.name, options: expect.arrayContaining(['fastupdate=off']) });
});

test('listings added and edited leave nothing pending in the indexes their searches read', async () => {
  await db.sql`create extension if not exists pgstattuple`;
  const site = await ensureSite(db.sql, 'gin', 'http://localhost');
  const made = [];
  for (let i = 0; i < 40; i++) {
    made.push(await makeListing(db.sql, { siteId: site.id, name: `Pending Probe ${i}`, columns: { tagline: `A tagline about widgets number ${i}` } }));
  }
  await db.sql`update listings set tagline = tagline || ' and gadgets' where id = any(${made.map((m) => m.id)})`;
  const pending = await db.sql<{ name: string; pending: number }[]>`
    select i::text as name, (pgstatginindex(i)).pending_tuples::int as pending
    from unnest(array['listings_search', 'listings_name_trgm', 'listings_tagline_trgm']::regclass[]) i`;
  expect([...pending]).toEqual([
    { name: 'listings_search', pending: 0 },
    { name: 'listings_name_trgm', pending: 0 },
    { name: 'listings_tagline_trgm', pending: 0 },
  ]);
  // And the new words are found through the index.
  const [{ n }] = await db.sql`select count(*)::int as n from listings where search @@ to_tsquery('english', 'gadgets')`;
  expect(n).toBe(40);
});
