// Text and URL normal forms for comparing a drafter's quotes and values with crawled page text.
import { decodeHTML } from 'entities';

const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u2032\u02BC\u0060\u00B4]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g;
const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g;
const INVISIBLE_CHARS = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;

/** The form quotes are compared in: entities decoded, NFKC (so ligatures, full-width forms and
 * no-break spaces fold), curly quotes and dashes made plain, zero-width characters dropped,
 * lower case, whitespace collapsed. */
export function normaliseText(text: string): string {
  return decodeHTML(text)
    .normalize('NFKC')
    .replace(SINGLE_QUOTES, "'")
    .replace(DOUBLE_QUOTES, '"')
    .replace(DASHES, '-')
    .replace(INVISIBLE_CHARS, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Whether `needle` occurs in `haystack` (both normalised) starting and ending on word
 * boundaries, so "2019" is not found inside "20190" nor "art" inside "start". */
export function containsPhrase(haystack: string, needle: string): boolean {
  if (needle === '') return false;
  const guardStart = WORD_CHAR.test(needle[0]!);
  const guardEnd = WORD_CHAR.test(needle[needle.length - 1]!);
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const before = at > 0 ? haystack[at - 1]! : ' ';
    const after = at + needle.length < haystack.length ? haystack[at + needle.length]! : ' ';
    if (guardStart && WORD_CHAR.test(before)) continue;
    if (guardEnd && WORD_CHAR.test(after)) continue;
    return true;
  }
  return false;
}

// Words that say nothing about whether a value is supported by a quote.
const STOPWORDS = new Set(
  (
    'the and for with you your our are that this from into all any can will has have was were its not but out more most ' +
    'than then they their them who what when where how why which also just only very over about get gets via per each ' +
    'every one own off yet too etc use used using make makes made lets let who whom whose been being his her she him'
  ).split(' '),
);

/** Content words of a text, normalised: numbers always, other words of 3+ characters that are not stopwords. */
export function contentTokens(text: string): string[] {
  return normaliseText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '' && (/^\p{N}+$/u.test(t) || (t.length >= 3 && !STOPWORDS.has(t))));
}

/** A crude stem so "manage"/"management", "tool"/"tools", "founder"/"founded" meet; numbers are exact. */
export function stem(token: string): string {
  if (/^\p{N}+$/u.test(token)) return token;
  return token.length > 5 ? token.slice(0, 5) : token.replace(/s$/, '');
}

/** Share (0..1) of the value's content words that occur (by stem) in the quotes, and whether
 * every number in the value occurs in the quotes. A value with no content words is supported
 * only when it occurs in a quote as a phrase. */
export function support(value: string, quotes: string[]): { ratio: number; numbersOk: boolean } {
  const quoteStems = new Set(quotes.flatMap(contentTokens).map(stem));
  const tokens = contentTokens(value);
  const numbersOk = tokens.filter((t) => /^\p{N}+$/u.test(t)).every((t) => quoteStems.has(t));
  if (tokens.length === 0) {
    const v = normaliseText(value);
    return { ratio: quotes.some((q) => containsPhrase(normaliseText(q), v)) ? 1 : 0, numbersOk };
  }
  const matched = tokens.filter((t) => quoteStems.has(stem(t))).length;
  return { ratio: matched / tokens.length, numbersOk };
}

/** Comparable form of a URL: host without "www.", path without trailing slash, query kept,
 * scheme and fragment dropped (http and https links to one page are one link). */
export function urlKey(href: string, base?: string): string | null {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const port = url.port === '' ? '' : `:${url.port}`;
  const path = url.pathname.replace(/\/+$/, '');
  return `${host}${port}${path}${url.search}`;
}

/** An absolute http(s) URL, or null. */
export function absoluteHttpUrl(href: string, base?: string): string | null {
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Cuts long text at a word boundary not after `max` characters, ending with an ellipsis. */
export function truncateWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.5 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Sentences of one line of page text (substrings of it, so still word for word). */
export function sentences(line: string): string[] {
  return line.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'])/u).filter((s) => s.trim() !== '');
}
