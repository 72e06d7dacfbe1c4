import { afterAll, beforeAll, expect, test } from 'bun:test';
import { NAME_HEADS, NAME_TAILS } from '../../seeds/demo-data/words.ts';
import { NAME_INFIXES } from '../../seeds/synthetic-sql.ts';
import { makeCompany, makeListing } from '../../test/builders.ts';
import { freshDatabase } from '../../test/db.ts';
import { connect, type Sql } from '../db.ts';
import { ensureSite } from '../site.ts';
import { searchListingIds } from './listings.ts';
import { loadVocabulary, vocabularyOf } from './search-vocabulary.ts';
import { planTypoSearch } from './typo-plan.ts';

// Typo correction is planned at the edge from its copy of the vocabulary (typo-plan.ts): the copy
// follows the refresh without waiting, and the planner finds near words among a vocabulary the
// size of a million listings'.

let db: Awaited<ReturnType<typeof freshDatabase>>;
let sql: Sql;
let siteId: number;
let companyId: number;
beforeAll(async () => {
  db = await freshDatabase();
  siteId = (await ensureSite(db.sql, 'main', 'http://main.test')).id;
  companyId = (await makeCompany(db.sql)).id;
  // A pool of its own: its copy of the vocabulary is loaded by its first search.
  sql = connect(db.url, { max: 2 });
}, 60_000);
afterAll(async () => {
  await sql.end();
  await db.drop();
});

const found = async (q: string) => (await searchListingIds(sql, siteId, { q, status: 'live', sort: 'relevance' }, 1, 20)).ids.map(Number);

test('a word the refresh added is corrected at the next search, from a copy read again once', async () => {
  // The copy read before the first refresh knows no word.
  expect(await found('quilmarrow')).toEqual([]);
  const quill = await makeListing(db.sql, { siteId, companyId, name: 'Alpha Tool', columns: { tagline: 'a quillmarrow for notes' } });
  await db.sql`select refresh_directory_views()`;
  expect(await found('quilmarrow')).toEqual([quill.id]);
  const copy = await vocabularyOf(sql).get();
  // No refresh since: the same copy, not read again.
  expect(await found('quilmarow')).toEqual([quill.id]);
  expect(await vocabularyOf(sql).get()).toBe(copy);
  // A word no listing had when the copy was read: no prefix of it matches, only its correction.
  const bramble = await makeListing(db.sql, { siteId, companyId, name: 'Beta Tool', columns: { tagline: 'brambleworth inside' } });
  await db.sql`select refresh_directory_views()`;
  expect(await found('bramblworth')).toEqual([bramble.id]);
  const fresh = await vocabularyOf(sql).get();
  expect(fresh).not.toBe(copy);
  expect(fresh.generation).not.toBe(copy.generation);
  expect(fresh.wordIds.has('brambleworth')).toBe(true);
  // A refresh that changed no word leaves the generation where it was.
  await db.sql`select refresh_directory_views()`;
  expect((await db.sql<{ g: string }[]>`select last_value::text as g from search_vocabulary_generation`)[0]!.g).toBe(fresh.generation);
});

test('near words are found among the vocabulary of a million listings', async () => {
  const words = NAME_HEADS.flatMap((h) => NAME_INFIXES.flatMap((i) => NAME_TAILS.map((t) => `${h}${i}${t}`.toLowerCase())));
  expect(words.length).toBeGreaterThan(10_000);
  await db.sql`insert into search_words (word, listings) select w, 1 from unnest(${words}::text[]) w on conflict do nothing`;
  await db.sql`insert into search_lexemes (lexeme, listings) select w, 1 from unnest(${words}::text[]) w on conflict do nothing`;
  const v = await loadVocabulary(db.sql);
  const near = (q: string) => planTypoSearch(v, q).near;
  // One letter missing, changed, added, or two neighbours swapped: the word itself among the corrections.
  for (const word of words.filter((_, i) => i % 997 === 0)) {
    const typos = [word.slice(0, 3) + word.slice(4), `${word.slice(0, 3)}x${word.slice(4)}`, `${word.slice(0, 3)}q${word.slice(3)}`];
    typos.push(word.slice(0, 2) + word[3] + word[2] + word.slice(4));
    for (const typo of typos) if (!v.wordIds.has(typo)) expect({ typo, found: near(typo).includes(word) }).toEqual({ typo, found: true });
  }
  // At most the 6 nearest one edit away, then swaps.
  expect(near('quillkenstak')).toContain('quillkenstack');
  for (const word of words.slice(0, 200)) expect(near(`${word}x`).length).toBeLessThanOrEqual(7);
});
