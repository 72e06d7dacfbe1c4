// Which of the directory's categories a text is about: BM25 with each category's own texts
// (its name three times, its keywords twice, its description once) as the documents and the
// site's words as the query, so a term that many categories share (idf) and a term a text
// repeats (saturation) count for little. The extractive drafter uses it to choose categories;
// the evidence check uses it to test that the quoted sentences are about the category even when
// they never name it ("profit per product, cohorts, conversion funnels" is Analytics).
// Hand-written rather than wink-bm25-text-search: that library ranks documents for one query,
// and here the same small corpus is scored against many sentences, with the matched terms kept
// as the reason for each score.
import stemWord from 'wink-porter2-stemmer';
import type { CategoryText } from './types.ts';
import { normaliseText } from './normalise.ts';

const K1 = 1.2;
const B = 0.75;
/** Below this score no category is chosen: a guess is worse than none. */
export const CATEGORY_THRESHOLD = 5.5;
/** A chosen category needs this many different terms of its texts in the site's words. */
export const CATEGORY_MIN_TERMS = 2;

// Words every kind of product says of itself; they tell categories apart no better than "the".
const GENERIC = new Set(
  (
    'the and for with your our you are that this from into all any can will has have was were its not but out more most than then ' +
    'they their them who what when where how why which also just only very over about each every one own off per via use used using ' +
    'tool tools team teams software app apps platform business businesses product products service services company companies ' +
    'help helps need needs work works people way ways day days make makes made get gets new manage managing management ' +
    'track tracking simple easy fast better best small large free online web base user users person open'
  ).split(' '),
);

export function terms(text: string): string[] {
  return normaliseText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length >= 3 && !/^\p{N}+$/u.test(t) && !GENERIC.has(t))
    .map((t) => stemWord(t))
    .filter((t) => t.length >= 3 && !GENERIC.has(t));
}

interface Doc {
  category: CategoryText;
  tf: Map<string, number>;
  length: number;
  /** Terms of the name and keywords: the ones that say what the category is. */
  core: Set<string>;
}

export interface CategoryScore {
  category: CategoryText;
  score: number;
  /** The category's terms the text holds. */
  matched: string[];
}

export class CategoryIndex {
  private readonly docs: Doc[];
  private readonly idf = new Map<string, number>();
  private readonly avgLength: number;

  constructor(categories: readonly CategoryText[]) {
    this.docs = categories.map((category) => {
      const name = terms(category.name);
      const keywords = (category.keywords ?? []).flatMap(terms);
      const all = [...name, ...name, ...name, ...keywords, ...keywords, ...terms(category.description)];
      const core = [...name, ...keywords];
      const tf = new Map<string, number>();
      for (const t of all) tf.set(t, (tf.get(t) ?? 0) + 1);
      return { category, tf, length: all.length, core: new Set(core) };
    });
    const n = this.docs.length;
    const df = new Map<string, number>();
    for (const doc of this.docs) for (const t of doc.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    for (const [t, d] of df) this.idf.set(t, Math.log(1 + (n - d + 0.5) / (d + 0.5)));
    this.avgLength = n === 0 ? 1 : this.docs.reduce((s, d) => s + d.length, 0) / n;
  }

  /** Term counts of a text, as the query side of the score. */
  static counts(texts: readonly string[]): Map<string, number> {
    const out = new Map<string, number>();
    for (const text of texts) for (const t of terms(text)) out.set(t, (out.get(t) ?? 0) + 1);
    return out;
  }

  idfOf(term: string): number {
    return this.idf.get(term) ?? 0;
  }

  /** Every category's score for the query, best first. */
  score(query: Map<string, number>): CategoryScore[] {
    const out: CategoryScore[] = [];
    for (const doc of this.docs) {
      let score = 0;
      const matched: string[] = [];
      for (const [t, qtf] of query) {
        const f = doc.tf.get(t);
        if (f === undefined) continue;
        const norm = f + K1 * (1 - B + (B * doc.length) / this.avgLength);
        // A term said ten times is not ten times the evidence: the query side saturates too.
        score += this.idfOf(t) * ((f * (K1 + 1)) / norm) * ((2 * qtf) / (qtf + 1));
        matched.push(t);
      }
      out.push({ category: doc.category, score, matched });
    }
    return out.sort((a, b) => b.score - a.score);
  }

  /** Whether the texts hold enough of the category's terms to be about it: at least
   * CATEGORY_MIN_TERMS of them, one of which names what the category is (name or keyword). */
  supports(category: CategoryText, texts: readonly string[]): boolean {
    const doc = this.docs.find((d) => d.category.slug === category.slug);
    if (doc === undefined) return false;
    const query = CategoryIndex.counts(texts);
    const matched = [...query.keys()].filter((t) => doc.tf.has(t));
    return matched.length >= CATEGORY_MIN_TERMS && matched.some((t) => doc.core.has(t));
  }

  core(category: CategoryText): Set<string> {
    return this.docs.find((d) => d.category.slug === category.slug)?.core ?? new Set();
  }
}
