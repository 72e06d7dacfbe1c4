import { afterAll, beforeAll, expect, test } from 'bun:test';
import { freshDatabase } from '../test/db.ts';

// Typo correction (typo_tsqueries, migration 0016): which known words a search term also stands
// for, and that it finds them by index probes, whatever the size of the vocabulary.

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
  await db.sql`analyze search_words`;
  await db.sql`analyze search_lexemes`;
}, 60_000);
afterAll(() => db.drop());

/** The known words a query's ranked tsquery also matches, besides its own terms. */
const corrections = async (q: string) => {
  const [{ ranked }] = await db.sql<{ ranked: string | null }[]>`select ranked::text from typo_tsqueries(${q})`;
  return [...(ranked ?? '').matchAll(/'((?:[^']|'')*)'(:\*)?/g)].filter((m) => !m[2]).map((m) => m[1]!);
};

test('every known word one edit away is a correction, though seven others are nearer by trigrams', async () => {
  // The trigram walk's first six (what 0013 corrected from) do not reach it.
  const nearest = await db.sql`select word from search_words order by word <-> 'vexila', word limit 6`;
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
  const matched = async (q: string) => (await db.sql<{ matched: string }[]>`select matched::text from typo_tsqueries(${q})`)[0]!.matched;
  expect(await matched('vexi')).toContain("'vexilaaa' | 'vexilabb'");
  expect(await matched('прив')).toContain("'привет' | 'приветствие'");
});

test('with cached generic plans, correction reads the word and lexeme indexes, never every row', async () => {
  await db.sql.begin(async (tx) => {
    // What PL/pgSQL settles on after a few calls in a session.
    await tx`set local plan_cache_mode = force_generic_plan`;
    // This backend's counts not yet reported (earlier statements' included): compared before and after.
    const scans = async () =>
      Object.fromEntries(
        (
          await tx<{ relname: string; seq_scan: number; idx_scan: number }[]>`
            select relname, seq_scan::int, idx_scan::int from pg_stat_xact_user_tables
            where relname in ('search_words', 'search_lexemes')`
        ).map((r) => [r.relname, r]),
      );
    const before = await scans();
    // The lookups every term makes. Not the fallback walk for an unknown long word ('reconcilaton'):
    // with 4,000 words PostgreSQL 15 rightly finds sorting them all cheaper than walking the index.
    for (const q of ['vexila', 'notoin', 'bookeeping', 'reconcilation', 'vex', 'vexila notion']) await tx`select * from typo_tsqueries(${q})`;
    const after = await scans();
    for (const table of ['search_words', 'search_lexemes']) {
      expect({ table, seq_scans: after[table]!.seq_scan - (before[table]?.seq_scan ?? 0) }).toEqual({ table, seq_scans: 0 });
      expect(after[table]!.idx_scan - (before[table]?.idx_scan ?? 0)).toBeGreaterThan(0);
    }
  });
});
