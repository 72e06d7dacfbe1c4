import stem from 'wink-porter2-stemmer';
import { ENGLISH_STOP_WORDS } from './english-stop-words.ts';

/**
 * A copy of the search vocabulary (search_words and search_lexemes) as the edge keeps it, with the
 * indexes typo_tsqueries reads: words by their one-letter deletions and by their trigrams. Hashed
 * into sorted typed arrays rather than maps of strings: a million listings know 17,669 words, which
 * make 227,000 deletions and as many trigrams; the whole copy is about 11 MB of heap there.
 */
export interface Vocabulary {
  /** search_vocabulary.version the copy was read at. */
  version: string;
  /** Known words in the database's own order (`order by word`), which breaks typo_tsqueries' ties. */
  words: string[];
  /** Each word's English lexemes (tsvector_to_array(to_tsvector('english', word))), space-separated: one string a word. */
  wordStems: string[];
  wordIds: Map<string, number>;
  /** Whether each word is ASCII: only then are its trigrams and edits counted here as PostgreSQL counts them. */
  wordAscii: Uint8Array;
  byDeletion: HashIndex;
  byTrigram: HashIndex;
  /** Known lexemes in byte order (PostgreSQL's ~<~), and each one's listings. */
  lexemes: string[];
  lexemeCounts: Int32Array;
}

/** What the edge chose for typo_tsqueries_planned (migration 0025); null fields as it takes them. */
export interface TypoPlan {
  version: string;
  terms: string[];
  near: string[];
  nearGroup: number[];
  known: (string | null)[];
  narrowGroup: number | null;
  /**
   * At most how many listings the search can match: its rarest group's estimate (each lexeme's
   * listings summed, every status and site), null when every group is unbounded. The database's
   * counts move about once a minute, so it is a guide for choosing a statement, never for results.
   */
  matchesAtMost: number | null;
}

/** Ids below this (2,097,152 words) fit beside a 32-bit hash in a double. */
const ID_SPAN = 2 ** 21;

/** Word ids by a 32-bit hash of a key: ids of every key with that hash (callers check the key). */
export interface HashIndex {
  keys: Uint32Array;
  ids: Int32Array;
}

/** FNV-1a of s, without its character at `skip` when given (a deletion, hashed without making it). */
export function fnv1a(s: string, skip = -1): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) if (i !== skip) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** An index entry: a key's hash and an id, packed in one number (exact below 2^53). */
export const indexEntry = (hash: number, id: number) => hash * ID_SPAN + id;

/**
 * Sorts packed entries (indexEntry) into an index. Plain numbers rather than [key, id] pairs: a
 * million listings' words make 227,000 of each kind, which as pairs were tens of MB of garbage at
 * every load; and a typed array sorts natively, where a comparator took tens of ms.
 */
export function hashIndex(entries: number[]): HashIndex {
  const packed = Float64Array.from(entries).sort();
  const keys = new Uint32Array(packed.length);
  const ids = new Int32Array(packed.length);
  for (let i = 0; i < packed.length; i++) {
    keys[i] = Math.floor(packed[i]! / ID_SPAN);
    ids[i] = packed[i]! % ID_SPAN;
  }
  return { keys, ids };
}

/** The first index in [0, n) that `before` is false for, `before` being true up to some index and false after. */
function lowerBound(n: number, before: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lookup(index: HashIndex, h: number, out: number[]) {
  for (let i = lowerBound(index.keys.length, (k) => index.keys[k]! < h); index.keys[i] === h; i++) out.push(index.ids[i]!);
}

/**
 * pg_trgm's trigrams: each alphanumeric run padded with two spaces before and one after, in
 * characters. `separator` says what is not alphanumeric: beyond ASCII that is the locale's to say.
 */
function trigramsOf(s: string, separator: RegExp): Set<string> {
  const out = new Set<string>();
  for (const w of s.toLowerCase().split(separator)) {
    if (!w) continue;
    const chars = [...`  ${w} `];
    for (let i = 0; i + 3 <= chars.length; i++) out.add(chars[i]! + chars[i + 1]! + chars[i + 2]!);
  }
  return out;
}

/** Trigrams as in a C locale (only ASCII letters and digits are alphanumeric): exact for ASCII text. */
export const trigrams = (s: string) => trigramsOf(s, /[^a-z0-9]+/);
/** Trigrams with every letter and digit alphanumeric, as in a UTF-8 locale. */
export const unicodeTrigrams = (s: string) => trigramsOf(s, /[^\p{L}\p{N}]+/u);

/** pg_trgm's similarity: shared trigrams over all of both; the distance `<->` is one minus it. */
function similarity(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  const all = a.size + b.size - shared;
  return all === 0 ? 0 : shared / all;
}

/** fuzzystrmatch's levenshtein with unit costs, over characters (as strings when ASCII, else as arrays of code points). */
export function levenshtein(a: string | string[], b: string | string[], atMost = Number.POSITIVE_INFINITY): number {
  // More apart in length than allowed: at least that many edits (the caller only asks within it).
  if (Math.abs(a.length - b.length) > atMost) return Math.abs(a.length - b.length);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** PostgreSQL's quote_literal. */
export function quoteLiteral(s: string): string {
  const body = `'${s.replace(/'/g, "''").replace(/\\/g, '\\\\')}'`;
  return s.includes('\\') ? `E${body}` : body;
}

/** Code point order, which is UTF-8's byte order (PostgreSQL's ~<~). */
function byteOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

export const isAscii = (s: string) => /^[\x00-\x7f]*$/.test(s);

/** The known lexemes starting with term, the first `limit` in byte order, and their listings. */
function prefixLexemes(v: Vocabulary, term: string, limit: number) {
  // Native (UTF-16) order agrees with byte order against an ASCII term.
  const lo = lowerBound(v.lexemes.length, (i) => v.lexemes[i]! < term);
  let hi2 = lo;
  let listings = 0;
  for (; hi2 < v.lexemes.length && hi2 - lo < limit && v.lexemes[hi2]!.startsWith(term); hi2++) listings += v.lexemeCounts[hi2]!;
  return { from: lo, to: hi2, listings };
}

/** A lexeme's listings (0 when unknown), found in the byte-ordered list. */
function lexemeListings(v: Vocabulary, x: string): number {
  const i = lowerBound(v.lexemes.length, (k) => byteOrder(v.lexemes[k]!, x) < 0);
  return v.lexemes[i] === x ? v.lexemeCounts[i]! : 0;
}

/** Ranked nearest first by trigram distance, ties in the database's word order. */
function nearestFirst(v: Vocabulary, term: string, ids: number[]): number[] {
  if (ids.length <= 1) return ids;
  const mine = trigrams(term);
  return ids
    .map((id) => ({ id, sim: similarity(trigrams(v.words[id]!), mine) }))
    .sort((a, b) => b.sim - a.sim || a.id - b.id)
    .map((x) => x.id);
}

/** Without its letter at `at` (-1: as it is). */
const without = (w: string, at: number) => (at < 0 ? w : w.slice(0, at) + w.slice(at + 1));

/** Whether w and term share a spelling with at most one letter removed from each (word_deletions(w) && word_deletions(term)). */
function sharesDeletion(w: string, term: string, termHashes: number[]): boolean {
  for (let i = -1; i < w.length; i++) {
    const h = fnv1a(w, i);
    for (let k = 0; k < termHashes.length; k++) if (termHashes[k] === h && without(w, i) === without(term, k - 1)) return true;
  }
  return false;
}

/**
 * Known words one typo away (two from 7 letters) that share a deletion with the term, the 6
 * nearest, and the known words one swap of neighbours away; null when a candidate is not ASCII.
 */
function nearWords(v: Vocabulary, term: string): string[] | null {
  // The term's deletions by hash (index k: without its letter k - 1; 0: the term itself).
  const mine = Array.from({ length: term.length + 1 }, (_, k) => fnv1a(term, k - 1));
  const found: number[] = [];
  for (const h of mine) lookup(v.byDeletion, h, found);
  const candidates = found.filter((id, i) => found.indexOf(id) === i);
  const within = term.length >= 7 ? 2 : 1;
  const kept: number[] = [];
  for (const id of candidates) {
    const w = v.words[id]!;
    if (w === term) continue;
    const edits = levenshtein(w, term, within);
    if (edits > within) continue;
    // Found by a deletion's hash: two edits apart, the deletion itself is checked (one edit apart,
    // two words always share one).
    if (edits === 2 && !sharesDeletion(w, term, mine)) continue;
    // Its trigrams depend on the database's locale: the database orders these.
    if (!v.wordAscii[id]) return null;
    kept.push(id);
  }
  // In typo_tsqueries' order (0025): the 6 nearest as chosen, then swaps not among them by spelling.
  const near = nearestFirst(v, term, kept)
    .slice(0, 6)
    .map((id) => v.words[id]!);
  const swaps: number[] = [];
  for (let i = 0; i + 1 < term.length; i++) {
    const id = v.wordIds.get(term.slice(0, i) + term[i + 1] + term[i] + term.slice(i + 2));
    if (id !== undefined && v.words[id] !== term && !near.includes(v.words[id]!) && !swaps.includes(id)) swaps.push(id);
  }
  return near.concat(swaps.sort((a, b) => a - b).map((id) => v.words[id]!));
}

/** An unknown long word with nothing one typo away: the 6 nearest known words by trigrams, kept within two edits. */
function twoEdits(v: Vocabulary, term: string): string[] | null {
  const found: number[] = [];
  for (const t of trigrams(term)) lookup(v.byTrigram, fnv1a(t), found);
  const candidates = new Set(found);
  const mine = trigrams(term);
  const sharing: number[] = [];
  const beyondAscii: number[] = [];
  for (const id of candidates) {
    if (!v.wordAscii[id]) beyondAscii.push(id);
    else if ([...trigrams(v.words[id]!)].some((t) => mine.has(t))) sharing.push(id);
  }
  // Words sharing no trigram come after these, and none is within two edits of 7 letters or more.
  const nearest = nearestFirst(v, term, sharing).slice(0, 6);
  // A word beyond ASCII is counted by the database's locale: as ASCII text (C) or with its letters
  // (UTF-8). If it could take one of the 6 places under either, the database chooses.
  const sixth = nearest.length === 6 ? similarity(trigrams(v.words[nearest[5]!]!), mine) : 0;
  for (const id of beyondAscii) {
    const w = v.words[id]!;
    const best = Math.max(similarity(trigrams(w), mine), similarity(unicodeTrigrams(w), mine));
    if (best > 0 && (nearest.length < 6 ? levenshtein([...w], [...term]) <= 2 : best >= sixth)) return null;
  }
  return nearest.map((id) => v.words[id]!).filter((w) => w !== term && levenshtein(w, term) <= 2);
}

/** to_tsvector('english', term)'s lexemes for an ASCII term: numbers as they are, words stemmed, stop words none. */
function englishLexemes(v: Vocabulary, term: string): string[] {
  const id = v.wordIds.get(term);
  if (id !== undefined) return v.wordStems[id] ? v.wordStems[id]!.split(' ') : [];
  if (/[0-9]/.test(term)) return [term];
  return ENGLISH_STOP_WORDS.has(term) ? [] : [stem(term)];
}

/**
 * typo_tsqueries' choices (migration 0023) made from the copy: the terms kept, each one's near
 * words and its prefix's known lexemes, and the group to find alone. Null when the text is not
 * ASCII (lower() and unaccent() are then the database's to apply) or a word it would weigh is not:
 * the database plans that search itself.
 *
 * The narrow group is an estimate from listing counts, as there; for a term no listing uses, its
 * English stem comes from a Porter2 stemmer rather than PostgreSQL's Snowball, which can choose
 * another group on a rare word. The rows found are the same whichever group is narrow (0018).
 */
export function planTypoSearch(v: Vocabulary, q: string): TypoPlan | null {
  if (!isAscii(q)) return null;
  const terms: string[] = [];
  for (const t of q.toLowerCase().split(/[^a-z0-9]+/)) {
    if (t === '' || terms.includes(t)) continue;
    terms.push(t);
    if (terms.length === 8) break;
  }
  const plan: TypoPlan = { version: v.version, terms: [], near: [], nearGroup: [], known: [], narrowGroup: null, matchesAtMost: null };
  const hasContent = terms.some((t) => !ENGLISH_STOP_WORDS.has(t));
  // Each group's words and known lexemes for the estimate, null when unbounded.
  const groups: ({ words: string[]; known: string[] } | null)[] = [];
  let wide = false;
  let large = false;
  for (const term of terms) {
    if (hasContent && ENGLISH_STOP_WORDS.has(term)) continue;
    const g = plan.terms.length + 1;
    plan.terms.push(term);
    const words = [term];
    let lexemesAdded = 0;
    let known: string[] = [];
    let unbounded = false;
    if (term.length >= 3) {
      const prefix = prefixLexemes(v, term, 41);
      if (prefix.to - prefix.from <= 40) {
        known = v.lexemes.slice(prefix.from, prefix.to);
        if (known.length > 0) plan.known.push(known.map(quoteLiteral).join(' | '));
      } else unbounded = true;
      lexemesAdded = known.length;
      large ||= prefix.listings >= 1000;
    } else {
      large = true;
    }
    if (plan.known.length < plan.terms.length) plan.known.push(null);
    if (term.length >= 4) {
      let near = nearWords(v, term);
      if (near !== null && near.length === 0 && term.length >= 7 && !v.wordIds.has(term)) near = twoEdits(v, term);
      if (near === null) return null;
      for (const w of near) {
        plan.near.push(w);
        plan.nearGroup.push(g);
        words.push(w);
      }
    }
    wide ||= 2 * words.length + lexemesAdded >= 20;
    groups.push(unbounded ? null : { words, known });
  }
  // What the estimate counts of each group: its words, their stems and its known lexemes.
  const counted = groups.map((g) => g && new Set([...g.words.flatMap((w) => [w, ...englishLexemes(v, w)]), ...g.known]));
  const per = counted.map((set, i) => ({
    g: i + 1,
    size: set?.size ?? 0,
    est: set === null ? null : [...set].reduce((sum, x) => sum + lexemeListings(v, x), 0),
  }));
  // The smallest estimate (the first group among equals): the bound, and the group to narrow to.
  const rare = per.filter((p) => p.est !== null).sort((a, b) => a.est! - b.est! || a.g - b.g)[0];
  plan.matchesAtMost = rare ? rare.est : null;
  if (rare && groups.length >= 2 && (wide || large || groups.includes(null))) plan.narrowGroup = rarest(per, rare);
  return plan;
}

interface GroupEstimate {
  g: number;
  size: number;
  est: number | null;
}

/**
 * Whether the rare group (the smallest estimate) is far rarer than another (typo_tsqueries' last
 * statement): at most 2,000 listings and some other group is unbounded, or of 20 lexemes and 8
 * times as many listings, or of 500 times as many.
 */
function rarest(per: GroupEstimate[], rare: GroupEstimate): number | null {
  if (rare.est! > 2000) return null;
  const floor = Math.max(rare.est!, 1);
  const larger = per.some((p) => p.g !== rare.g && (p.est === null || (p.size >= 20 && p.est >= 8 * floor) || p.est >= 500 * floor));
  return larger ? rare.g : null;
}
