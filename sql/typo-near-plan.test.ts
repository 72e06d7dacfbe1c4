import { afterAll, beforeAll, expect, test } from 'bun:test';
import postgres from 'postgres';
import { freshDatabase } from '../test/db.ts';
import { NAME_HEADS, NAME_TAILS } from '../seeds/demo-data/words.ts';
import { NAME_INFIXES } from '../seeds/synthetic-sql.ts';

// Typo correction's near-word lookup (typo_tsqueries, migration 0019) must read the deletions index
// however many words are known. With the synthetic vocabulary of a million and more listings the
// planner preferred the trigram index's nearest-first walk, reading and filtering every word (55 ms a
// term); on a handful of words it never does, so this test loads a vocabulary of that size and reads
// the plans PostgreSQL chose inside the function (auto_explain, nested statements).

let db: Awaited<ReturnType<typeof freshDatabase>>;
let conn: postgres.Sql;
const notices: string[] = [];
beforeAll(async () => {
  db = await freshDatabase();
  const words = NAME_HEADS.flatMap((h) => NAME_INFIXES.flatMap((i) => NAME_TAILS.map((t) => `${h}${i}${t}`.toLowerCase())));
  await db.sql`insert into search_words (word, listings) select w, 1 from unnest(${words}::text[]) w on conflict do nothing`;
  await db.sql`analyze search_words`;
  conn = postgres(db.url, { max: 1, onnotice: (n) => notices.push(n.message ?? '') });
  await conn`load 'auto_explain'`;
  await conn`set auto_explain.log_min_duration = 0`;
  await conn`set auto_explain.log_nested_statements = on`;
  await conn`set auto_explain.log_level = notice`;
}, 60_000);
afterAll(async () => {
  await conn.end();
  await db.drop();
});

test('near words come from the deletions index, not a walk of every known word, and are found', async () => {
  const typos = ['quillkenstak', 'vectrbarflow', 'nimbsdoxhub', 'cedarvilforg', 'orbitmudlopo', 'pixeltasdesk', 'emberpuzwav'];
  for (const q of typos) {
    notices.length = 0;
    const [row] = await conn<{ matched: string }[]>`select matched::text from typo_tsqueries(${q})`;
    // The near statement's plan (its text names the deletions of the term).
    const plans = notices.filter((n) => n.includes('word_deletions(s.word) && word_deletions(term)'));
    expect({ q, plans: plans.length }).toEqual({ q, plans: 1 });
    // A walk of the trigram index nearest first shows as its Order By.
    expect({ q, deletions: plans[0]!.includes('search_words_deletions'), walk: /Order By: \(word <->/.test(plans[0]!) }).toEqual({
      q,
      deletions: true,
      walk: false,
    });
    expect(row!.matched).toMatch(/'[a-z]+'/);
  }
  // What the lookup finds: the words one typo away.
  const [one] = await conn<{ matched: string }[]>`select matched::text from typo_tsqueries('quillkenstak')`;
  expect(one!.matched).toContain("'quillkenstack'");
}, 60_000);

test("each word's lookups are one statement of the function, and splitting q is none", async () => {
  // Every statement a PL/pgSQL function runs costs it tens of microseconds (a cached plan revalidated,
  // relations locked, an executor started), which was most of a one-typo search's correction: the
  // words are split in simple expressions, and a word's prefix, near words and swaps read in one.
  const statements = async (q: string) => {
    notices.length = 0;
    await conn`select matched::text from typo_tsqueries(${q})`;
    // Plans only (a stop word raises a notice of its own); auto_explain logs the caller's statement too.
    return notices.filter((n) => n.includes('Query Text:') && !n.includes('from typo_tsqueries(')).length;
  };
  expect(await statements('quillkenstak')).toBe(1);
  expect(await statements('quillkenstak vectrbarflow')).toBe(2);
  // Stop words and words under 3 letters read nothing; a repeated word is one word. A short word
  // beside another may be a common one: the groups' sizes are estimated, one statement more (0023).
  expect(await statements('the quillkenstak of the quillkenstak')).toBe(1);
  expect(await statements('the quillkenstak of ai quillkenstak')).toBe(2);
  expect(await statements('ab')).toBe(0);
}, 60_000);
