import { distance } from 'fastest-levenshtein';
import stem from 'wink-porter2-stemmer';

/**
 * The search vocabulary (search_words and search_lexemes) as an edge holds it, with the two
 * indexes typo correction reads: words by their one-letter deletions and by their trigrams. Hashed
 * into sorted typed arrays rather than maps of strings: a million listings know about 17,700
 * words, which make 227,000 deletions and as many trigrams. At 100k listings (2,549 words, 2,927
 * lexemes) the whole copy is 2.3 MB of heap.
 */
export interface Vocabulary {
  /** search_vocabulary_generation when it was read: the refresh moves it when either table changes. */
  generation: string;
  /** Known words in code point order, which breaks ties between equally near words. */
  words: string[];
  /** Each word's English lexemes (to_tsvector('english', word)), space-separated; '' for a stop word. */
  wordStems: string[];
  wordIds: Map<string, number>;
  byDeletion: HashIndex;
  byTrigram: HashIndex;
  /** Known lexemes in code point order (PostgreSQL's byte order, ~<~), and each one's listings. */
  lexemes: string[];
  lexemeCounts: Int32Array;
  /** Each lexeme's place in lexemes. */
  lexemeIds: Map<string, number>;
  /** English stop words the database drops (english-stop-words.ts, as the database confirmed them). */
  stopWords: ReadonlySet<string>;
}

/** The choices for one search, as planned_tsqueries() (sql/functions/10_search.sql) builds its tsqueries from them. */
export interface TypoPlan {
  /** The terms kept, one group each, in order. */
  terms: string[];
  /** Each group's near words, in order, and the group of each. */
  near: string[];
  nearGroup: number[];
  /** Per group: its prefix's known lexemes as tsquery text ('a' | 'b'), or null to keep the prefix. */
  known: (string | null)[];
  /** The group the GIN index finds alone (far rarer than another), or null. */
  narrowGroup: number | null;
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

/** pg_trgm's trigrams: each run of letters and digits, lower case, padded with two spaces before and one after. */
export function trigrams(s: string): Set<string> {
  const out = new Set<string>();
  for (const w of s.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!w) continue;
    const chars = [...`  ${w} `];
    for (let i = 0; i + 3 <= chars.length; i++) out.add(chars[i]! + chars[i + 1]! + chars[i + 2]!);
  }
  return out;
}

/** pg_trgm's similarity: shared trigrams over all of both. */
function similarity(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  const all = a.size + b.size - shared;
  return all === 0 ? 0 : shared / all;
}

/** Levenshtein distance with unit costs; beyond `atMost` apart in length, that difference, without comparing (the caller only asks within it). */
const levenshtein = (a: string, b: string, atMost: number) => (Math.abs(a.length - b.length) > atMost ? Math.abs(a.length - b.length) : distance(a, b));

/** PostgreSQL's quote_literal: how a lexeme is written in tsquery text. */
function quoteLiteral(s: string): string {
  const body = `'${s.replace(/'/g, "''").replace(/\\/g, '\\\\')}'`;
  return s.includes('\\') ? `E${body}` : body;
}

/** Letters that carry no combining mark to strip but that unaccent spells out. */
const SPELLED_OUT: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' };

/**
 * The first 8 distinct words of q: lower case, accents removed (as unaccent does, for the letters
 * people type), split at anything but a letter or digit. Lengths and deletions count UTF-16 units,
 * which are characters for every letter outside the rare supplementary planes.
 */
function termsOf(q: string): string[] {
  const folded = q
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßæœøđðłþı]/g, (c) => SPELLED_OUT[c]!);
  const terms: string[] = [];
  for (const t of folded.split(/[^\p{L}\p{N}]+/u)) {
    if (t === '' || terms.includes(t)) continue;
    terms.push(t);
    if (terms.length === 8) break;
  }
  return terms;
}

/** The known lexemes starting with term, the first `limit` in order, and their listings. */
function prefixLexemes(v: Vocabulary, term: string, limit: number) {
  const from = lowerBound(v.lexemes.length, (i) => v.lexemes[i]! < term);
  let to = from;
  let listings = 0;
  for (; to < v.lexemes.length && to - from < limit && v.lexemes[to]!.startsWith(term); to++) listings += v.lexemeCounts[to]!;
  return { from, to, listings };
}

/** A lexeme's listings (0 when unknown). */
function lexemeListings(v: Vocabulary, x: string): number {
  const i = v.lexemeIds.get(x);
  return i === undefined ? 0 : v.lexemeCounts[i]!;
}

/** Ranked nearest first by trigram similarity (each with it), ties in word order. */
function nearestFirst(v: Vocabulary, term: string, ids: Iterable<number>): { id: number; sim: number }[] {
  const mine = trigrams(term);
  return [...ids].map((id) => ({ id, sim: similarity(trigrams(v.words[id]!), mine) })).sort((a, b) => b.sim - a.sim || a.id - b.id);
}

/** Without its letter at `at` (-1: as it is). */
const without = (w: string, at: number) => (at < 0 ? w : w.slice(0, at) + w.slice(at + 1));

/** Whether w and term share a spelling with at most one letter removed from each. */
function sharesDeletion(w: string, term: string, termHashes: number[]): boolean {
  for (let i = -1; i < w.length; i++) {
    const h = fnv1a(w, i);
    for (let k = 0; k < termHashes.length; k++) if (termHashes[k] === h && without(w, i) === without(term, k - 1)) return true;
  }
  return false;
}

/**
 * Known words one typo away (two from 7 letters) that share a deletion with the term, the 6
 * nearest by trigrams; then the known words one swap of neighbours away ("notoin" -> "notion", one
 * typo though Levenshtein counts two) not among them, in word order.
 */
function nearWords(v: Vocabulary, term: string): string[] {
  // The term's deletions by hash (index k: without its letter k - 1; 0: the term itself).
  const mine = Array.from({ length: term.length + 1 }, (_, k) => fnv1a(term, k - 1));
  const found: number[] = [];
  for (const h of mine) lookup(v.byDeletion, h, found);
  const within = term.length >= 7 ? 2 : 1;
  const kept: number[] = [];
  for (const id of new Set(found)) {
    const w = v.words[id]!;
    if (w === term) continue;
    const edits = levenshtein(w, term, within);
    if (edits > within) continue;
    // Found by a deletion's hash: two edits apart, the shared deletion itself is checked (one edit
    // apart, two words always share one).
    if (edits === 2 && !sharesDeletion(w, term, mine)) continue;
    kept.push(id);
  }
  const near = nearestFirst(v, term, kept)
    .slice(0, 6)
    .map((x) => v.words[x.id]!);
  const swaps: number[] = [];
  for (let i = 0; i + 1 < term.length; i++) {
    const id = v.wordIds.get(term.slice(0, i) + term[i + 1] + term[i] + term.slice(i + 2));
    if (id !== undefined && v.words[id] !== term && !near.includes(v.words[id]!) && !swaps.includes(id)) swaps.push(id);
  }
  return near.concat(swaps.sort((a, b) => a - b).map((id) => v.words[id]!));
}

/**
 * An unknown long word with nothing one typo away may carry two: the 6 nearest known words by
 * trigrams, kept within two edits. (A word sharing no trigram with a term of 7 letters or more is
 * never within two edits of it, so only words sharing one are ranked.)
 */
function twoEdits(v: Vocabulary, term: string): string[] {
  const found: number[] = [];
  for (const t of trigrams(term)) lookup(v.byTrigram, fnv1a(t), found);
  // Found by a trigram's hash: one sharing none is a collision.
  return nearestFirst(v, term, new Set(found))
    .filter((x) => x.sim > 0)
    .slice(0, 6)
    .map((x) => v.words[x.id]!)
    .filter((w) => w !== term && levenshtein(w, term, 2) <= 2);
}

/** to_tsvector('english', w)'s lexemes: a known word's as the database gave them, else numbers as they are, words stemmed, stop words none. */
function englishLexemes(v: Vocabulary, w: string): string[] {
  const id = v.wordIds.get(w);
  if (id !== undefined) return v.wordStems[id] ? v.wordStems[id]!.split(' ') : [];
  if (/[0-9]/.test(w)) return [w];
  return v.stopWords.has(w) ? [] : [stem(w)];
}

const isStopWord = (v: Vocabulary, term: string) => {
  const id = v.wordIds.get(term);
  return id !== undefined ? v.wordStems[id] === '' : v.stopWords.has(term);
};

/**
 * Typo correction for q: which terms are kept, the words each also stands for, and the group to
 * find alone. Each term matches itself and its English stem; from 3 characters also as a prefix
 * (spelled out as its known lexemes when at most 40: GIN then skips through a common term's
 * postings using a rare one, which it cannot do for a prefix); from 4 letters also the known words
 * one typo away (nearWords), and from 7 letters, with none and unknown itself, those within two
 * (twoEdits). English stop words are dropped unless nothing else is left. The narrow group is an
 * estimate from listing counts; the rows found are the same whichever group is narrow.
 */
export function planTypoSearch(v: Vocabulary, q: string): TypoPlan {
  const terms = termsOf(q);
  const plan: TypoPlan = { terms: [], near: [], nearGroup: [], known: [], narrowGroup: null };
  const hasContent = terms.some((t) => !isStopWord(v, t));
  // Each group's words and known lexemes for the estimate, null when unbounded.
  const groups: ({ words: string[]; known: string[] } | null)[] = [];
  // wide: some group may count 20 lexemes (a word and its stem count two); large: some group may
  // be in very many listings (a short word, or a prefix of many listings). Else none is narrowed.
  let wide = false;
  let large = false;
  for (const term of terms) {
    if (hasContent && isStopWord(v, term)) continue;
    const g = plan.terms.length + 1;
    plan.terms.push(term);
    const words = [term];
    let known: string[] = [];
    let unbounded = false;
    if (term.length >= 3) {
      const prefix = prefixLexemes(v, term, 41);
      if (prefix.to - prefix.from <= 40) known = v.lexemes.slice(prefix.from, prefix.to);
      else unbounded = true;
      large ||= prefix.listings >= 1000;
    } else {
      // A short word is never looked up: it may be in most listings ("ai", "os").
      large = true;
    }
    plan.known.push(known.length > 0 ? known.map(quoteLiteral).join(' | ') : null);
    if (term.length >= 4) {
      let near = nearWords(v, term);
      if (near.length === 0 && term.length >= 7 && !v.wordIds.has(term)) near = twoEdits(v, term);
      for (const w of near) {
        plan.near.push(w);
        plan.nearGroup.push(g);
        words.push(w);
      }
    }
    wide ||= 2 * words.length + known.length >= 20;
    groups.push(unbounded ? null : { words, known });
  }
  if (groups.length >= 2 && (wide || large || groups.includes(null))) plan.narrowGroup = narrowGroup(v, groups);
  return plan;
}

/**
 * One group far rarer than another of many lexemes (or a prefix standing for more than are
 * counted), or than another in 500 times its listings: the index finds the rare group's few
 * listings and each is checked against the whole query (about 3.5 us a listing), instead of the
 * index advancing every lexeme of the large group for each of them (about 0.4 us a lexeme) or
 * passing a common word's postings (about 6 ns each). A group's size is an upper bound: its words',
 * their stems' and its known lexemes' listings summed.
 */
function narrowGroup(v: Vocabulary, groups: ({ words: string[]; known: string[] } | null)[]): number | null {
  const per = groups.map((group, i) => {
    if (group === null) return { g: i + 1, size: 0, est: null };
    const counted = new Set([...group.words.flatMap((w) => [w, ...englishLexemes(v, w)]), ...group.known]);
    return { g: i + 1, size: counted.size, est: [...counted].reduce((sum, x) => sum + lexemeListings(v, x), 0) };
  });
  const rare = per.filter((p) => p.est !== null).sort((a, b) => a.est! - b.est! || a.g - b.g)[0];
  if (!rare || rare.est! > 2000) return null;
  const floor = Math.max(rare.est!, 1);
  const larger = per.some((p) => p.g !== rare.g && (p.est === null || (p.size >= 20 && p.est >= 8 * floor) || p.est >= 500 * floor));
  return larger ? rare.g : null;
}
