import { afterAll, beforeAll, expect, test } from 'bun:test';
import { freshDatabase } from '../test/db.ts';
import { makeCompany, makeListing } from '../test/builders.ts';
import { typoTsqueries } from '../test/typo.ts';
import { ensureSite } from './site.ts';
import { searchListingIds } from './queries/listings.ts';

// The narrow group of a typo search (sql/queries/typo-plan.ts): a term far rarer than a
// common word spelled out as many lexemes is found alone by the index, and every listing it finds
// is checked against the whole query. The rows must be those of the whole query.

let db: Awaited<ReturnType<typeof freshDatabase>>;
let siteId: number;
beforeAll(async () => {
  db = await freshDatabase();
  const { sql } = db;
  siteId = (await ensureSite(sql, 'main', 'http://main.test')).id;
  const company = await makeCompany(sql);
  const make = (name: string, tagline: string) => makeListing(sql, { siteId, companyId: company.id, name, columns: { tagline } });
  // "kit" as a word of 40 listings, and as the prefix of 24 other words: a group of many lexemes.
  const kites = Array.from({ length: 24 }, (_, i) => `kite${String.fromCharCode(97 + i)}${String.fromCharCode(97 + ((i * 7) % 26))}`);
  for (let i = 0; i < 40; i++) await make(`Toolbox ${i}`, `a handy kit with ${kites[i % kites.length]}`);
  // Two listings named Vectorbase: one also says kit, one does not.
  await make('Vectorbase Kit', 'vectors stored');
  await make('Vectorbase', 'vectors served');
  await make('Notion Clone', 'notes for kit makers');
  // "ai", a short word of one lexeme, in 1,100 listings (set-based: a builder call each would take long).
  await sql`insert into listings (site_id, company_id, slug, name, url, domain, tagline, status, launched_at)
            select ${siteId}, ${company.id}, 'helper-' || i, 'Helper ' || i, 'https://helper-' || i || '.test', 'helper-' || i || '.test',
                   'an ai helper', 'live', now() from generate_series(1, 1100) i`;
  await make('Quillstack AI', 'writing with ai');
  await make('Quillstack', 'writing by hand');
  await sql`select refresh_directory_views()`;
}, 60_000);
afterAll(() => db.drop());

const tsqueries = (q: string) => typoTsqueries(db.sql, q);

/** The listings the whole matched query finds, by the index alone. */
const matchedIds = async (q: string) => {
  const { matched } = await tsqueries(q);
  return (
    await db.sql<{ id: string }[]>`
      select l.id::text from listings l where l.site_id = ${siteId} and l.status = 'live' and l.search @@ ${matched}::tsquery
      order by l.id`
  ).map((r) => r.id);
};

test('a misspelt rare name beside a common word of many lexemes is the narrow group', async () => {
  const { matched, narrow } = await tsqueries('vectorbease kit');
  expect(matched).toContain("'kiteaa'");
  expect(narrow).toContain("'vectorbase'");
  expect(narrow).not.toContain('kit');
});

test('a misspelt rare name beside a short word in very many listings is the narrow group', async () => {
  const { narrow } = await tsqueries('quilstack ai');
  expect(narrow).toContain("'quillstack'");
  expect(narrow).not.toContain("'ai'");
  // Both in many listings, or neither: nothing to narrow.
  expect((await tsqueries('helper ai')).narrow).toBeNull();
  expect((await tsqueries('vectorbase notion')).narrow).toBeNull();
});

test('one term, or terms alike in size, have no narrow group', async () => {
  expect((await tsqueries('kit')).narrow).toBeNull();
  expect((await tsqueries('vectorbase')).narrow).toBeNull();
  // Both rare and small: the index intersects them as it always did.
  expect((await tsqueries('vectorbase notion')).narrow).toBeNull();
});

test('a search with a narrow group finds exactly the listings of the whole query', async () => {
  for (const q of ['vectorbease kit', 'vectorbase kit', 'kit vectrbase', 'quilstack ai', 'ai quillstack'])
    expect({ q, narrow: (await tsqueries(q)).narrow !== null }).toEqual({ q, narrow: true });
  for (const q of ['vectorbease kit', 'vectorbase kit', 'kit vectrbase', 'notoin kit', 'kit', 'quilstack ai', 'ai quillstack']) {
    const whole = await matchedIds(q);
    const { ids, total } = await searchListingIds(db.sql, siteId, { q, status: 'live', sort: 'relevance' }, 1, 100);
    expect({ q, ids: ids.map(String).sort(), total }).toEqual({ q, ids: whole.sort(), total: whole.length });
  }
  // The rare group found both Vectorbase listings; only the one that also says kit is a match.
  const namesFound = async (q: string) => {
    const { ids } = await searchListingIds(db.sql, siteId, { q, status: 'live', sort: 'relevance' }, 1, 100);
    return (await db.sql<{ name: string }[]>`select name from listings where id = any(${ids.map(String)}::bigint[])`).map((r) => r.name);
  };
  expect(await namesFound('vectorbease kit')).toEqual(['Vectorbase Kit']);
  // Likewise the two Quillstack listings: only the one that says ai.
  expect(await namesFound('quilstack ai')).toEqual(['Quillstack AI']);
});
