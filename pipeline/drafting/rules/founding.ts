// founded_year: a year the site states as the founding of this product or its company:
// "Orbitly was founded in 2021", "We started Beamly in 2020", "Since 2019" (a badge), "In 2020,
// we founded ...". Never another company's history ("Stripe, founded in 2010"), a year in
// passing ("worked there 2012 to 2018"), a copyright year or a planted instruction.
import { sentences } from '../normalise.ts';
import { namesProduct, organisationAfter, subjectIsProduct, type ProductContext } from './subject.ts';

const VERB = /\b(?:co-?founded|founded|established|incorporated|started|began|begun|launched|created|born)\b/gi;
const YEAR_AFTER = (year: string) => new RegExp(`^[^.;]{0,60}?\\b(?:in|since|back in|during)?\\s*(?:[A-Z][a-z]+\\s+)?${year}\\b`);
const SINCE = (year: string) => new RegExp(`\\b(?:since|est\\.?|established|founded)\\s*:?\\s*${year}\\b`, 'i');
const IN_YEAR_WE = (year: string) =>
  new RegExp(`\\b(?:in|back in)\\s+${year},?\\s+(\\S+(?:\\s+\\S+)?)\\s+(?:co-?founded|founded|started|began|launched|created|established)\\b`, 'i');

const words = (s: string) => s.split(/\s+/).filter((w) => w !== '').length;

/** Whether the sentence states `year` as the founding year of this product or company. */
export function statesFounding(sentence: string, year: string, ctx: ProductContext): boolean {
  if (!sentence.includes(year)) return false;
  // A short badge: "Since 2019", "Est. 2019", "Founded 2019".
  if (words(sentence) <= 4 && SINCE(year).test(sentence)) return true;
  // "In 2020, we founded Beamly."
  const lead = IN_YEAR_WE(year).exec(sentence);
  if (lead !== null && namesProduct(lead[1]!, ctx)) return true;
  // "We have been building BrightDesk since 2019."
  const since = new RegExp(`\\bsince\\s+${year}\\b`, 'i').exec(sentence);
  if (
    since !== null &&
    /\b(?:we|we've|our|us)\b/i.test(sentence.slice(0, since.index)) &&
    !/\b(?:customer|client|user|partner)s?\b/i.test(sentence.slice(0, since.index))
  ) {
    return true;
  }
  for (const verb of sentence.matchAll(VERB)) {
    const after = sentence.slice(verb.index! + verb[0].length);
    if (!YEAR_AFTER(year).test(after)) continue;
    // "Tom founded Acme Bakery in 1998": the thing founded is named after the verb.
    const object = /^\s+((?:\p{Lu}[\p{L}\p{N}&.'’-]*\s*){1,3})(?=\s+in\b|\s+back\b|,)/u.exec(after);
    if (object !== null) {
      if (namesProduct(object[1]!.trim(), ctx)) return true;
      continue;
    }
    if (subjectIsProduct(sentence, verb.index!, ctx)) return true;
  }
  return false;
}

/** Whether any sentence of the quote states the founding year. */
export function quoteStatesFounding(quote: string, year: string, ctx: ProductContext): boolean {
  return sentences(quote).some((s) => statesFounding(s, year, ctx));
}

export { organisationAfter };
