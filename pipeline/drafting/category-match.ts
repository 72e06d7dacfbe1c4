// Which of the directory's categories a text is about: BM25 with each category's own texts
// (its name three times, its keywords twice, its description once) as the documents and the
// site's words as the query, so a term that many categories share (idf) and a term a text
// repeats (saturation) count for little. The extractive drafter uses it to choose categories;
// the evidence check uses it to test that the quoted sentences are about the category even when
// they never name it ("profit per product, cohorts, conversion funnels" is Analytics).
// The document side (idf, saturation, length norm) is wink-nlp's BM25 vectorizer; the query
// side is summed here because the same small corpus is scored against many sentences and the
// matched terms are kept as the reason for each score, which a ranking library does not return.
import bm25Vectorizer from 'wink-nlp/utilities/bm25-vectorizer';
import stemWord from 'wink-porter2-stemmer';
import type { CategoryText } from './types.ts';
import { normaliseText } from './normalise.ts';

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

// Two-letter words that name a kind of product; every other two-letter word is noise.
const SHORT_TERMS = new Set(['ai', 'ui', 'ux', 'ci', 'hr', 'qa', 'ml']);

export function terms(text: string): string[] {
  return normaliseText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => (t.length >= 3 || SHORT_TERMS.has(t)) && !/^\p{N}+$/u.test(t) && !GENERIC.has(t))
    .map((t) => (t.length < 3 ? t : stemWord(t)))
    .filter((t) => (t.length >= 3 || SHORT_TERMS.has(t)) && !GENERIC.has(t));
}

interface Doc {
  category: CategoryText;
  /** Each term's BM25 weight in the category's texts (idf times saturated, length-normed tf). */
  weights: Map<string, number>;
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

  constructor(categories: readonly CategoryText[]) {
    const vectorizer = bm25Vectorizer({ k: 1, k1: 1.2, b: 0.75, norm: 'none' });
    const texts = categories.map((category) => {
      const name = terms(category.name);
      const keywords = (category.keywords ?? []).flatMap(terms);
      const all = [...name, ...name, ...name, ...keywords, ...keywords, ...terms(category.description)];
      vectorizer.learn(all);
      return { category, all, core: new Set([...name, ...keywords]) };
    });
    this.docs =
      texts.length === 0
        ? []
        : texts.map(({ category, core }, i) => ({
            category,
            weights: new Map(Object.entries(vectorizer.doc(i).out() as unknown as Record<string, number>)),
            core,
          }));
    // Each term's idf on its own (the vectorizer's formula, which it does not hand out without a
    // wink-nlp instance), to rank single lines as the evidence for a category.
    const n = texts.length;
    const df = new Map<string, number>();
    for (const { all } of texts) for (const t of new Set(all)) df.set(t, (df.get(t) ?? 0) + 1);
    for (const [t, d] of df) this.idf.set(t, Math.log(1 + (n - d + 0.5) / (d + 0.5)));
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
        const weight = doc.weights.get(t);
        if (weight === undefined) continue;
        // A term said ten times is not ten times the evidence: the query side saturates too.
        score += weight * ((2 * qtf) / (qtf + 1));
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
    const matched = [...query.keys()].filter((t) => doc.weights.has(t));
    return matched.length >= CATEGORY_MIN_TERMS && matched.some((t) => doc.core.has(t));
  }

  core(category: CategoryText): Set<string> {
    return this.docs.find((d) => d.category.slug === category.slug)?.core ?? new Set();
  }
}
