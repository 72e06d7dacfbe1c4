import type { Sql } from '../db.ts';
import { ENGLISH_STOP_WORDS } from './english-stop-words.ts';
import { fnv1a, hashIndex, indexEntry, trigrams, type Vocabulary } from './typo-plan.ts';

/**
 * Reads the vocabulary in one statement, so in one snapshot: the copy is exactly the generation it
 * names (and, a read like any other, it waits for the reads' pool as they do). Each list comes as
 * one newline-separated text (words and lexemes hold no whitespace), not a row each: at a million
 * listings, 40,000 rows were megabytes of objects to collect at every load.
 */
export async function loadVocabulary(sql: Sql): Promise<Vocabulary> {
  const [v] = await sql<{ generation: string; stops: string[]; words: string; stems: string; lexemes: string; counts: number[] }[]>`
      select (select last_value::text from search_vocabulary_generation) as generation,
             -- to_tsvector, not plainto_tsquery: it drops a stop word quietly, where the other sends a notice.
             array(select w from unnest(${[...ENGLISH_STOP_WORDS]}::text[]) w where to_tsvector('english', w) = ''::tsvector) as stops,
             coalesce(w.words, '') as words, coalesce(w.stems, '') as stems, coalesce(x.lexemes, '') as lexemes, coalesce(x.counts, '{}') as counts
      from (select string_agg(word, e'\n' order by word collate "C") as words,
                   string_agg(array_to_string(tsvector_to_array(to_tsvector('english', word)), ' '), e'\n' order by word collate "C") as stems
            from search_words) w,
           (select string_agg(lexeme, e'\n' order by lexeme collate "C") as lexemes,
                   array_agg(listings order by lexeme collate "C") as counts
            from search_lexemes) x`;
  const lines = (text: string) => (text === '' ? [] : text.split('\n'));
  const words = lines(v!.words);
  const lexemes = lines(v!.lexemes);
  const deletionEntries: number[] = [];
  const trigramEntries: number[] = [];
  for (let id = 0; id < words.length; id++) {
    // In slices, yielding between them: an edge goes on answering while it indexes a million
    // listings' words (at 100k, 2,500 took 7-32 ms in one go).
    if (id % 500 === 499) await new Promise((resolve) => setImmediate(resolve));
    const w = words[id]!;
    for (let i = -1; i < w.length; i++) deletionEntries.push(indexEntry(fnv1a(w, i), id));
    for (const t of trigrams(w)) trigramEntries.push(indexEntry(fnv1a(t), id));
  }
  return {
    generation: v!.generation,
    words,
    wordStems: words.length === 0 ? [] : v!.stems.split('\n'),
    wordIds: new Map(words.map((w, id) => [w, id])),
    byDeletion: hashIndex(deletionEntries),
    byTrigram: hashIndex(trigramEntries),
    lexemes,
    lexemeCounts: Int32Array.from(v!.counts),
    lexemeIds: new Map(lexemes.map((x, i) => [x, i])),
    stopWords: new Set(v!.stops),
  };
}

/**
 * A pool's copy of the vocabulary: loaded on first use, and again when a search finds the
 * database at another generation (the minute refresh moved it). One load at a time; searches
 * meanwhile wait for it, so none is planned from a copy known to be old.
 */
export class SearchVocabulary {
  #current: Vocabulary | null = null;
  #loading: Promise<Vocabulary> | null = null;

  constructor(private readonly sql: Sql) {}

  /** The copy, loading it first when there is none or the database has moved past `generation`. */
  async get(seen?: string): Promise<Vocabulary> {
    const current = this.#current;
    if (current !== null && (seen === undefined || seen === current.generation)) return current;
    this.#loading ??= loadVocabulary(this.sql)
      .then((v) => {
        this.#current = v;
        return v;
      })
      .finally(() => {
        this.#loading = null;
      });
    return this.#loading;
  }
}

const vocabularies = new WeakMap<Sql, SearchVocabulary>();

/** The vocabulary copy of a pool (one per pool, kept as long as the pool is). */
export function vocabularyOf(sql: Sql): SearchVocabulary {
  let v = vocabularies.get(sql);
  if (!v) vocabularies.set(sql, (v = new SearchVocabulary(sql)));
  return v;
}
