// founded_year: a year the site states as the founding of this product or its company:
// "Orbitly was founded in 2021", "We started Beamly in 2020", "Since 2019" (a badge), "In 2020,
// we founded ...", "Orbitly was started in 2019 by ...", and the German "gegründet 2019",
// "seit 2019". Never another company's history ("Stripe, founded in 2010"), a year in
// passing ("worked there 2012 to 2018"), a copyright year or a planted instruction.
import { sentences } from '../normalise.ts';
import { namesProduct, organisationAfter, subjectIsProduct, type ProductContext } from './subject.ts';

const VERB = /\b(?:co-?founded|founded|established|incorporated|started|began|begun|launched|created|born)\b/gi;
const YEAR_AFTER = (year: string) => new RegExp(`^[^.;]{0,60}?\\b(?:in|since|back in|during)?\\s*(?:[A-Z][a-z]+\\s+)?${year}\\b`);
const SINCE = (year: string) => new RegExp(`\\b(?:since|est\\.?|established|founded)\\s*:?\\s*${year}\\b`, 'i');
const IN_YEAR_WE = (year: string) =>
  new RegExp(`\\b(?:in|back in)\\s+${year},?\\s+(\\S+(?:\\s+\\S+)?)\\s+(?:co-?founded|founded|started|began|launched|created|established)\\b`, 'i');

const words = (s: string) => s.split(/\s+/).filter((w) => w !== '').length;

// "We built Chorebird in 2023": building is a founding only when what was built is named as the
// product ("we built the new editor in 2024" is a release, not a founding).
const BUILT = (year: string) => new RegExp(`\\bbuilt\\s+((?:\\p{Lu}[\\p{L}\\p{N}&.'’-]*\\s*){1,3})\\s*(?:back\\s+)?in\\s+${year}\\b`, 'u');
// German: "Gegründet 2019", "seit 2019", "Tafelwerk wurde 2019 in Leipzig gegründet", "Wir haben
// Tafelwerk 2019 gegründet", "Gegründet im Jahr 2019 von ...".
const DE_FOUNDED = /\b(?:gegründet|gegr\.|ins leben gerufen)/i;
const DE_SINCE = (year: string) => new RegExp(`\\bseit\\s+(?:dem\\s+jahr\\s+)?${year}\\b`, 'i');
const DE_SELF = /^(?:wir|unser(?:e|em)?|das team|die firma|das unternehmen|die gmbh)$/i;
// Customers, users and partners are said to do things "seit 2019" too; and a tool used since a
// year is not a founding.
const DE_NOT_US = /\b(?:kund(?:e|en|in|innen)|nutzer(?:innen)?|partner(?:n|innen)?|nutzen|verwenden|setzen)\b/i;

/** Whether the sentence's first words name the product or its company. */
function startsWithProduct(sentence: string, ctx: ProductContext): boolean {
  const first = sentence.split(/\s+/).slice(0, 3);
  return [1, 2, 3].some((n) => namesProduct(first.slice(0, n).join(' '), ctx));
}

/** A German sentence stating this product's (or its company's, or "our") founding year. */
function statesFoundingGerman(sentence: string, year: string, ctx: ProductContext): boolean {
  const first = sentence.split(/\s+/).slice(0, 3);
  const aboutUs = startsWithProduct(sentence, ctx) || [1, 2, 3].some((n) => DE_SELF.test(first.slice(0, n).join(' ')));
  const foundedAt = sentence.search(DE_FOUNDED);
  if (foundedAt >= 0) {
    const at = sentence.indexOf(year);
    const near = Math.abs(at - foundedAt) <= 60 && !/[.;]/.test(sentence.slice(Math.min(at, foundedAt), Math.max(at, foundedAt)));
    // "eine Bäckerei, gegründet 1952": set off by a comma, it is said of the words before it.
    const apposition = /,\s*$/.test(sentence.slice(0, foundedAt));
    if (near && apposition) return subjectIsProduct(sentence, sentence.slice(0, foundedAt).replace(/,\s*$/, '').length, ctx);
    // A badge or a sentence that opens with it ("Gegründet 2019 in Leipzig"), or one about us or
    // the product.
    if (near && (foundedAt < 3 || words(sentence) <= 6 || aboutUs || /\bwir\b/i.test(sentence.slice(0, foundedAt)))) return true;
  }
  const since = DE_SINCE(year).exec(sentence);
  if (since !== null && !DE_NOT_US.test(sentence)) {
    if (words(sentence) <= 4) return true; // "Seit 2019" as a badge
    return /\b(?:wir|uns|unser(?:e|em|en)?)\b/i.test(sentence) || aboutUs;
  }
  return false;
}

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
  // "Tallystack ... has been maintained since 2018": the product itself, kept going since then.
  const kept = new RegExp(`\\b(?:has|have)\\s+been\\s+(?:\\w+ed|around|running|building|developing|making)\\b[^.;]{0,40}?\\bsince\\s+${year}\\b`, 'i').exec(
    sentence,
  );
  if (kept !== null && startsWithProduct(sentence, ctx) && !/\b(?:customer|client|user|partner)s?\b/i.test(sentence.slice(0, kept.index))) return true;
  const built = BUILT(year).exec(sentence);
  if (built !== null && namesProduct(built[1]!.trim(), ctx)) return true;
  if (statesFoundingGerman(sentence, year, ctx)) return true;
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
