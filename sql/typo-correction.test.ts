import { afterAll, beforeAll, expect, test } from 'bun:test';
import { freshDatabase } from '../test/db.ts';
import { typoTsqueries } from '../test/typo.ts';

// Typo correction (sql/queries/typo-plan.ts, built by planned_tsqueries): which known words a
// search term also stands for, among a vocabulary of thousands.

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
  // A vocabulary large enough that the planner prefers indexes to reading every word, as it does
  // in a real directory: 4,000 made-up words, and the words the tests look for.
  await db.sql`
    insert into search_words (word, listings)
    select w, 1 from (select distinct substr(md5(i::text), 1, 4 + i % 6) as w from generate_series(1, 4000) i) x
    on conflict do nothing`;
  const words = [
    'vexilo',
    // Seven words nearer "vexila" by trigrams than "vexilo" is, each two edits away from it.
    ...['aa', 'bb', 'cc', 'dd', 'ee', 'ff', 'gg'].map((s) => `vexila${s}`),
    'notion',
    'reconciliation',
    'bookkeeping',
    'привет',
    'приветствие',
  ];
  await db.sql`insert into search_words ${db.sql(words.map((word) => ({ word, listings: 1 })))} on conflict do nothing`;
  await db.sql`insert into search_lexemes (lexeme, listings) select word, listings from search_words on conflict do nothing`;
}, 60_000);
afterAll(() => db.drop());

/** The known words a query's ranked tsquery also matches, besides its own terms. */
const corrections = async (q: string) => {
  const { ranked } = await typoTsqueries(db.sql, q);
  return [...(ranked ?? '').matchAll(/'((?:[^']|'')*)'(:\*)?/g)].filter((m) => !m[2]).map((m) => m[1]!);
};

test('every known word one edit away is a correction, though seven others are nearer by trigrams', async () => {
  // The six nearest by trigrams (what a plain nearest-neighbour walk would correct to) do not reach it.
  const nearest = await db.sql`select word from search_words order by similarity(word, 'vexila') desc, word limit 6`;
  expect(nearest.map((r) => r.word)).not.toContain('vexilo');
  expect(await corrections('vexila')).toContain('vexilo');
  // Two edits are too many for a word under 7 letters.
  expect(await corrections('vexila')).not.toContain('vexilaaa');
});

test('a swap, a letter missing, a letter added', async () => {
  expect(await corrections('notoin')).toContain('notion');
  expect(await corrections('bookeeping')).toContain('bookkeeping');
  expect(await corrections('reconcilliation')).toContain('reconciliation');
});

test('an unknown long word with two typos and nothing one edit away is still corrected', async () => {
  // Two letters missing: no spelling one deletion away from both, so only the trigram walk finds it.
  expect(await corrections('reconcilaton')).toContain('reconciliation');
});

test('a prefix is spelled out as the known words it stands for, in any script', async () => {
  const matched = async (q: string) => (await typoTsqueries(db.sql, q)).matched;
  expect(await matched('vexi')).toContain("'vexilaaa' | 'vexilabb'");
  expect(await matched('прив')).toContain("'привет' | 'приветствие'");
});

test('stop words are dropped unless nothing else is left; short words match whole', async () => {
  expect((await typoTsqueries(db.sql, 'the notoin')).ranked).not.toContain("'the'");
  expect((await typoTsqueries(db.sql, 'the')).ranked).toBe("'the':*");
  expect((await typoTsqueries(db.sql, 'ab')).ranked).toBe("'ab' | 'ab'");
  // Accents as unaccent removes them, case folded, split at anything but letters and digits.
  expect((await typoTsqueries(db.sql, 'NOTÍON!')).ranked).toContain("'notion'");
  expect(await typoTsqueries(db.sql, '!!!')).toEqual({ ranked: null, matched: null, narrow: null });
});
