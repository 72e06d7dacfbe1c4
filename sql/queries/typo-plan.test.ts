import { afterAll, beforeAll, expect, test } from 'bun:test';
import { oneTypo, prng } from '../../bench/scenarios.ts';
import { seedDemo } from '../../seeds/demo.ts';
import { seedSynthetic } from '../../seeds/synthetic.ts';
import { freshDatabase } from '../../test/db.ts';
import { connect, type Sql } from '../db.ts';
import { ensureSite } from '../site.ts';
import { searchListings } from './listings.ts';
import { loadVocabulary, SearchVocabulary } from './search-vocabulary.ts';
import { levenshtein, planTypoSearch, trigrams, type TypoPlan, type Vocabulary } from './typo-plan.ts';

// A search's typo correction planned by the edge from its copy of the vocabulary (migration 0025)
// must find what typo_tsqueries finds, on every kind of query, and never from a stale copy.

let db: Awaited<ReturnType<typeof freshDatabase>>;
let sql: Sql;
let siteId: number;
let copy: Vocabulary;
const queries: string[] = [];

beforeAll(async () => {
  db = await freshDatabase();
  siteId = (await ensureSite(db.sql, 'main', 'http://localhost')).id;
  await seedDemo(db.sql, siteId);
  await seedSynthetic(db.sql, siteId, 1500);
  // Words of other shapes than the synthetic ones: hyphenated, with digits, beyond ASCII.
  await db.sql`update listings set tagline = tagline || ' audit-ready e-commerce v2 web3 são paulo café naïve 2024'
               where id in (select id from listings where status = 'live' order by id limit 40)`;
  await db.sql`select refresh_directory_views()`;
  // Two edits from a 7-letter term are near only when the two share a deletion: "zxbrafincq" is
  // two letters changed from "zebrafinch" (no shared deletion) and one added to "zxbrafinc".
  await db.sql`insert into search_words (word, listings) values ('zebrafinch', 1), ('zxbrafinc', 1)`;
  await db.sql`analyze`;
  sql = connect(db.url, { max: 2 });
  copy = (await loadVocabulary(sql))!;
  const rnd = prng(11);
  const names = (await sql<{ name: string }[]>`select lower(name) as name from listings where site_id = ${siteId} order by md5(name) limit 300`).map(
    (r) => r.name,
  );
  const words = copy.words;
  const any = () => words[Math.floor(rnd() * words.length)]!;
  for (const n of names) {
    const ws = n.split(/\s+/);
    const i = Math.floor(rnd() * ws.length);
    if (ws[i]!.length >= 4) ws[i] = oneTypo(rnd, ws[i]!);
    queries.push(ws.join(' '));
  }
  for (let i = 0; i < 150; i++) {
    const w = any();
    queries.push(w.length >= 4 ? oneTypo(rnd, w) : w);
  }
  // Two typos in a long word (the trigram walk), prefixes, stop words beside words, several terms.
  for (let i = 0; i < 80; i++) {
    const w = any();
    queries.push(w.length >= 7 ? oneTypo(rnd, oneTypo(rnd, w)) : `the ${w}`);
  }
  for (let i = 0; i < 80; i++) queries.push(any().slice(0, 1 + Math.floor(rnd() * 6)));
  for (let i = 0; i < 40; i++) queries.push(`${any()} ${oneTypo(rnd, any() + 'x')} for ${any().slice(0, 3)}`);
  queries.push(
    ...['auditready', 'audit ready', 'e-commerce', 'ecommerce', 'v2', 'web3 tool', '2024', 'ai os', 'x', 'zz', 'the', 'the of', 'for the win'],
    ...['a b c d e f g h i j', 'Note-Taking APP for Teams!', '   ', 'naive cafe', 'sao paulo', 'paulo', 'cafe'],
  );
  expect(planTypoSearch(copy, 'zxbrafincq')!.near).toEqual(['zxbrafinc']);
  queries.push('zxbrafincq');
}, 180_000);
afterAll(async () => {
  await sql?.end();
  await db.drop();
});

const databaseTsqueries = (q: string) => sql`select ranked::text, matched::text, narrow::text from typo_tsqueries(${q})`;
const plannedTsqueries = (p: TypoPlan) =>
  sql`select ranked::text, matched::text, narrow::text
      from typo_tsqueries_planned(${p.terms}::text[], ${p.near}::text[], ${p.nearGroup}::int[], ${p.known}::text[], ${p.narrowGroup}::int)`;
test('the edge plans nearly every ASCII query itself, and the very tsqueries the database makes', async () => {
  let planned = 0;
  for (const q of queries) {
    const plan = planTypoSearch(copy, q);
    if (plan === null) continue;
    planned++;
    const [mine] = await plannedTsqueries(plan);
    const [theirs] = await databaseTsqueries(q);
    // Text for text: ts_rank depends on the order of a tsquery's operands (migration 0025).
    expect({ q, ...mine }).toEqual({ q, ...theirs });
  }
  expect(planned).toBeGreaterThanOrEqual(queries.length * 0.98);
}, 120_000);

test('a search planned by the edge finds the same page and total as one planned by the database', async () => {
  const vocabulary = new SearchVocabulary(sql);
  await vocabulary.reload();
  expect(vocabulary.current()).not.toBeNull();
  for (const q of queries) {
    for (const sort of ['relevance', 'newest'] as const) {
      const f = { q, status: 'live' as const, sort };
      const mine = await searchListings(sql, siteId, f, 1, 20, 'http://localhost', vocabulary);
      const theirs = await searchListings(sql, siteId, f, 1, 20, 'http://localhost');
      expect({ q, sort, total: mine.total, ids: mine.items.map((i) => i.id) }).toEqual({ q, sort, total: theirs.total, ids: theirs.items.map((i) => i.id) });
    }
  }
}, 180_000);

test('a plan bounds its matches, and a search bounded under 500 runs without the tiers', async () => {
  const vocabulary = new SearchVocabulary(sql);
  await vocabulary.reload();
  let bounded = 0;
  for (const q of queries) {
    const plan = planTypoSearch(copy, q);
    if (plan?.matchesAtMost == null) continue;
    bounded++;
    // The listings its words match (a search that matches none goes on to names like q as a whole).
    const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from listings l, typo_tsqueries(${q}) t
                                               where l.site_id = ${siteId} and l.status = 'live' and l.search @@ t.matched`;
    expect({ q, n, within: n <= plan.matchesAtMost }).toEqual({ q, n, within: true });
  }
  expect(bounded).toBeGreaterThanOrEqual(queries.length * 0.9);
  // Which statements a connection prepared: the tiers are the CTE named walk.
  const one = connect(db.url, { max: 1 });
  try {
    const searches = async () =>
      (
        await one<
          { statement: string }[]
        >`select statement from pg_prepared_statements where statement like '%typo_tsqueries_planned%' and statement not like '%pg_prepared_statements%'`
      ).map((r) => (/\bwalk as\b/.test(r.statement) ? 'tiers' : 'plain'));
    const rare = queries.find((q) => (planTypoSearch(copy, q)?.matchesAtMost ?? 500) < 500)!;
    await searchListings(one, siteId, { q: rare, status: 'live', sort: 'relevance' }, 1, 20, 'http://localhost', vocabulary);
    expect(await searches()).toEqual(['plain']);
    // A word nearly every listing has.
    expect(planTypoSearch(copy, 'team')!.matchesAtMost).toBeGreaterThanOrEqual(500);
    const broad = await searchListings(one, siteId, { q: 'team', status: 'live', sort: 'relevance' }, 1, 20, 'http://localhost', vocabulary);
    expect(broad.total).toBeGreaterThanOrEqual(500);
    expect((await searches()).sort()).toEqual(['plain', 'tiers']);
  } finally {
    await one.end();
  }
}, 180_000);

test('text beyond ASCII is planned by the database', () => {
  for (const q of ['café', 'привет мир', 'naïve tool', 'São Paulo']) expect(planTypoSearch(copy, q)).toBeNull();
  // An ASCII word one edit from a word beyond ASCII: the database orders those by its own locale.
  expect(copy.words).toContain('naïve');
  expect(planTypoSearch(copy, 'naive')).toBeNull();
  expect(planTypoSearch(copy, 'naivx')).not.toBeNull();
});

test('trigram similarity and edit distance are counted as pg_trgm and fuzzystrmatch count them', async () => {
  const rnd = prng(5);
  const words = copy.words.filter((w) => /^[\x00-\x7f]*$/.test(w));
  for (let i = 0; i < 300; i++) {
    const a = words[Math.floor(rnd() * words.length)]!;
    const b = i % 2 ? oneTypo(rnd, a.length >= 3 ? a : `${a}xyz`) : words[Math.floor(rnd() * words.length)]!;
    const [r] = await sql<{ sim: number; lev: number }[]>`select similarity(${a}, ${b}) as sim, levenshtein(${a}, ${b}) as lev`;
    const ta = trigrams(a);
    const tb = trigrams(b);
    const shared = [...ta].filter((t) => tb.has(t)).length;
    expect({ a, b, sim: Math.fround(shared / (ta.size + tb.size - shared)), lev: levenshtein(a, b) }).toEqual({ a, b, sim: Math.fround(r!.sim), lev: r!.lev });
  }
});

test('the vocabulary version moves with every change of words or lexemes, and only then', async () => {
  const version = async () => (await sql<{ v: string }[]>`select version::text as v from search_vocabulary`)[0]!.v;
  const before = await version();
  await sql`select refresh_directory_views()`;
  expect(await version()).toBe(before);
  await sql`insert into search_words (word, listings) values ('zzversionword', 1)`;
  const afterWord = await version();
  expect(afterWord).not.toBe(before);
  await sql`update search_lexemes set listings = listings where false`;
  expect(await version()).toBe(afterWord);
  await sql`delete from search_words where word = 'zzversionword'`;
  expect(await version()).not.toBe(afterWord);
});

test('a search planned from a copy the database has moved past finds what the database finds', async () => {
  const vocabulary = new SearchVocabulary(sql);
  await vocabulary.reload();
  const stale = vocabulary.current()!;
  // A word no listing had: one typo of it is corrected only by a vocabulary that knows it.
  const [listing] = await sql<{ id: number }[]>`select id::int from listings where site_id = ${siteId} and status = 'live' order by id desc limit 1`;
  await sql`update listings set name = name || ' Quorblefex' where id = ${listing!.id}`;
  await sql`select refresh_directory_views()`;
  expect(planTypoSearch(stale, 'quorblefx')!.near).not.toContain('quorblefex');
  const found = await searchListings(sql, siteId, { q: 'quorblefx', status: 'live', sort: 'relevance' }, 1, 20, 'http://localhost', vocabulary);
  expect(found.items.map((i) => i.id)).toContain(listing!.id);
  // The search dropped the stale copy and asked for a new one, which knows the word.
  await vocabulary.reload();
  expect(vocabulary.current()!.version).not.toBe(stale.version);
  expect(planTypoSearch(vocabulary.current()!, 'quorblefx')!.near).toContain('quorblefex');
});
