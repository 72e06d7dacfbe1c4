import type { Sql } from '../db.ts';
import { ENGLISH_STOP_WORDS } from './english-stop-words.ts';
import { fnv1a, hashIndex, indexEntry, isAscii, trigrams, unicodeTrigrams, type Vocabulary } from './typo-plan.ts';

/** After a failed load, how long before another is tried (a search meanwhile is planned by the database). */
const RETRY_AFTER_MS = 5_000;

/**
 * Reads the vocabulary in one snapshot (repeatable read), so the copy is exactly the version it
 * names. (A stop word is asked of to_tsvector, which drops it quietly: plainto_tsquery sends a
 * notice for each.) Null when the database's English configuration does not drop the stop words the edge
 * knows: its searches are then planned by the database alone.
 */
export async function loadVocabulary(sql: Sql): Promise<Vocabulary | null> {
  // Each list as one newline-separated text (words and lexemes hold no whitespace), not a row each:
  // at a million listings, 40,000 rows were megabytes of objects to collect at every load.
  // One read of each table, both of its lists in the same order.
  const [[v]] = await sql.begin('isolation level repeatable read read only', (tx) => [
    tx<{ version: string; stops: number; words: string; stems: string; lexemes: string; counts: number[] }[]>`
      select (select v.version::text from search_vocabulary v) as version,
             (select count(*) from unnest(${[...ENGLISH_STOP_WORDS]}::text[]) w where to_tsvector('english', w) = ''::tsvector)::int as stops,
             coalesce(w.words, '') as words, coalesce(w.stems, '') as stems, coalesce(x.lexemes, '') as lexemes, coalesce(x.counts, '{}') as counts
      from (select string_agg(word, e'\n' order by word) as words,
                   string_agg(array_to_string(tsvector_to_array(to_tsvector('english', word)), ' '), e'\n' order by word) as stems
            from search_words) w,
           -- Byte order (collation "C" is ~<~'s order), as the prefix search walks them.
           (select string_agg(lexeme, e'\n' order by lexeme collate "C") as lexemes,
                   array_agg(listings order by lexeme collate "C") as counts
            from search_lexemes) x`,
  ]);
  if (v!.stops !== ENGLISH_STOP_WORDS.size) return null;
  const lines = (text: string) => (text === '' ? [] : text.split('\n'));
  const list = lines(v!.words);
  const deletionEntries: number[] = [];
  const trigramEntries: number[] = [];
  const wordAscii = new Uint8Array(list.length);
  for (let id = 0; id < list.length; id++) {
    // In slices, yielding between them: an edge goes on answering while it indexes a million
    // listings' words (17,669; at 100k, 2,500 took 7-32 ms in one go on this VM).
    if (id % 500 === 499) await new Promise((resolve) => setImmediate(resolve));
    const w = list[id]!;
    wordAscii[id] = isAscii(w) ? 1 : 0;
    for (let i = -1; i < w.length; i++) deletionEntries.push(indexEntry(fnv1a(w, i), id));
    // A word beyond ASCII under both readings of "alphanumeric" (C and UTF-8 locales): a superset,
    // so a search it may bear on finds it and leaves the choice to the database.
    const grams = wordAscii[id] ? trigrams(w) : new Set([...trigrams(w), ...unicodeTrigrams(w)]);
    for (const t of grams) trigramEntries.push(indexEntry(fnv1a(t), id));
  }
  return {
    version: v!.version,
    words: list,
    wordStems: v!.words === '' ? [] : v!.stems.split('\n'),
    wordIds: new Map(list.map((w, id) => [w, id])),
    wordAscii,
    byDeletion: hashIndex(deletionEntries),
    byTrigram: hashIndex(trigramEntries),
    lexemes: lines(v!.lexemes),
    lexemeCounts: Int32Array.from(v!.counts),
  };
}

/**
 * An edge's copy of the vocabulary, loaded on first use and again when a search finds the database
 * at another version. Searches never wait for it: without a copy, the database plans them.
 */
export class SearchVocabulary {
  #current: Vocabulary | null = null;
  #loading: Promise<void> | null = null;
  #failedAt = 0;
  /** Whether the database can be planned for at all (its stop words are the edge's). */
  #usable = true;

  constructor(
    private readonly sql: Sql,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** The copy, or null while none is loaded (asking starts a load). */
  current(): Vocabulary | null {
    if (this.#current === null) void this.reload();
    return this.#current;
  }

  /**
   * A search found the database at another version than the copy's: the copy is dropped (searches
   * meanwhile are planned by the database, not planned here and run twice) and a new one loaded.
   */
  moved(): Promise<void> {
    this.#current = null;
    return this.reload();
  }

  /** Loads the vocabulary anew, one load at a time. */
  reload(): Promise<void> {
    if (this.#loading || !this.#usable || Date.now() - this.#failedAt < RETRY_AFTER_MS) return this.#loading ?? Promise.resolve();
    this.#loading = loadVocabulary(this.sql)
      .then((v) => {
        if (v === null) this.#usable = false;
        this.#current = v;
      })
      .catch((err) => {
        this.#failedAt = Date.now();
        this.onError(err);
      })
      .finally(() => {
        this.#loading = null;
      });
    return this.#loading;
  }
}
