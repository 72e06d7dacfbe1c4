// city and country: where this product's company is, as the site states it: "based in",
// "headquartered in", "made in", "registered in" said of the product, the company or "we";
// or a postal address or "Company, City, Country" line (footer, contact, <address>). Never a
// place mentioned in passing (a team trip, customers' cities, a community "in Paris").
import { containsPhrase, normaliseText, sentences } from '../normalise.ts';
import { COMPANY_SUFFIX, namesProduct, subjectIsProduct, type ProductContext } from './subject.ts';

// Where a company was founded is history, not where it is: "founded in Berlin" is no location.
const LOCATED = /\b(?:based|headquartered|located|registered|made|built|designed|hq|head office|offices?|home)\b/gi;
export const STREET =
  /\b(?:street|st\.|str\.|straße|strasse|road|rd\.?|avenue|ave\.?|boulevard|blvd\.?|lane|way|drive|square|place|platz|gasse|weg|rua|calle|via|viale|rue|gracht|vägen|gatan|katu|plaza|suite|floor|building)\b/i;
export const POSTCODE = /\b\d{4,5}\b|\b\d{3}\s?\d{2}\b|\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b|\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b|\b\d{4}\s?[A-Z]{2}\b|\b\d{4}-\d{3}\b/;

/** "<verb> in <place>" said of the product ("Orbitly is based in Munich", "Based in Austin"). */
export function locatedSentence(sentence: string, place: string, ctx: ProductContext): boolean {
  const p = normaliseText(place);
  for (const verb of sentence.matchAll(LOCATED)) {
    const after = sentence.slice(verb.index! + verb[0].length);
    const m = /^[^.;]{0,40}?\b(?:in|at|from|out of)\s+([^.;]{1,80})/i.exec(after);
    if (m === null || !containsPhrase(normaliseText(m[1]!), p)) continue;
    // "We are a remote-first team based in Munich": the subject may stand a few words earlier.
    if (subjectIsProduct(sentence, verb.index!, ctx)) return true;
    const head = sentence.slice(0, verb.index!).trim();
    const words = head.split(/\s+/);
    // "We are a remote-first team based in ...", but not "Our investors include Seedcamp, founded in ...".
    const otherName = words.slice(1).some((w) => /^\p{Lu}/u.test(w) && !namesProduct(w, ctx));
    if (words.length > 12 || otherName) continue;
    if (/^(?:we|we're|our|the company|the team|©)/i.test(head) || namesProduct(words[0] ?? '', ctx) || namesProduct(words.slice(0, 2).join(' '), ctx))
      return true;
  }
  return false;
}

/** A postal address, or "Company, City, Country", naming the place as one of its parts. */
export function addressStates(line: string, place: string, ctx: ProductContext): boolean {
  // An address is a list of names and numbers, not a sentence.
  if (line.length > 200 || /\b(?:was|were|is|are|founded|started|has|have|had|we|our|met|visited|serve|love)\b/i.test(line)) return false;
  const p = normaliseText(place);
  const parts = line
    .split(/\s*(?:,|·|•|\||–|—|\n)\s*/)
    .map((s) => normaliseText(s).replace(/[.;:!?]+$/, ''))
    .filter((s) => s !== '');
  // The place is one part of a list, never the first one (that is the company or the street).
  // A part is the place, or a postcode and the place ("1100-053 lisbon", "1015 cv amsterdam").
  const bare = (part: string) =>
    part
      // British, Irish and Canadian postcodes hold letters: "leeds ls1 4ab", "dublin d02 a342".
      .replace(/\b(?:[a-z]{1,2}\d[a-z\d]?\s?\d[a-z]{2}|[a-z]\d{2}\s?[a-z\d]{4}|[a-z]\d[a-z]\s?\d[a-z]\d)$/, '')
      .trim()
      .replace(/^[a-z]{0,2}-?[\d][\d\s-]*(?:[a-z]{2}\s+)?/, '')
      .replace(/\s+\d[\d\s-]*$/, '')
      .trim();
  const at = parts.findIndex((part, i) => i > 0 && bare(part) === p);
  if (parts.length < 2 || at < 0) return false;
  if (STREET.test(line) || POSTCODE.test(line)) return true;
  const first = line.split(/\s*(?:,|·|•|\|)\s*/)[0] ?? '';
  return parts.length <= 4 && (COMPANY_SUFFIX.test(first.trim()) || (namesProduct(first, ctx) && first.trim().split(/\s+/).length <= 3));
}

// A postal line of a town and its postcode and nothing else: "50672 Köln", "Dublin D02 A342",
// "Leeds LS1 4AB", "1015 CV Amsterdam". Nobody writes such a line but in an address.
const TOWN = "\\p{Lu}[\\p{L}'’.-]*(?:[ -]\\p{Lu}[\\p{L}'’.-]*){0,2}";
const CODE =
  '(?:[A-Z]{1,2}-)?\\d{4,5}(?:\\s?[A-Z]{2})?|\\d{3}\\s\\d{2}|\\d{4}-\\d{3}|[A-Z]{1,2}\\d[A-Z\\d]?\\s?\\d[A-Z]{2}|[A-Z]\\d{2}\\s?[A-Z\\d]{4}|[A-Z]\\d[A-Z]\\s?\\d[A-Z]\\d';
const POSTAL_LINE = new RegExp(`^(?:(?:${CODE})\\s+(${TOWN})|(${TOWN})\\s+(?:${CODE}))$`, 'u');

/** The town of a postal line ("50672 Köln" is Köln), or null when the line is no such line. */
export function postalTown(line: string): string | null {
  const m = POSTAL_LINE.exec(line.trim().replace(/[,.]$/, ''));
  return m === null ? null : (m[1] ?? m[2] ?? null);
}

/** Whether the quote states the place as where this product's company is. `inAddressBlock`:
 * the quote is a line of the page's address or footer blocks, where a bare "City, Region"
 * line is the company's own address. */
export function statesLocation(quote: string, place: string, ctx: ProductContext, inAddressBlock: boolean): boolean {
  if (sentences(quote).some((s) => locatedSentence(s, place, ctx))) return true;
  if (addressStates(quote, place, ctx)) return true;
  const town = postalTown(quote);
  if (town !== null) return normaliseText(town) === normaliseText(place);
  if (!inAddressBlock || quote.length > 120) return false;
  const parts = quote.split(/\s*,\s*/).map((s) => normaliseText(s));
  return parts.length <= 3 && parts.includes(normaliseText(place));
}
