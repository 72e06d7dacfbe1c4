// Who a sentence is about. A stated year, place or role belongs to this product only when the
// sentence's subject (or the company a role is "of") is the product, its company, or "we".
import { containsPhrase, normaliseText } from '../normalise.ts';

export interface ProductContext {
  /** The product's name (as drafted) and other names it goes by (the site's host label). */
  names: string[];
}

const SELF = /^(?:we|we've|we're|us|our|ours|i|i've|my|the company|our company|the business|our business|the team|our team|the startup)$/i;
const COMPANY_SUFFIX = /\b(?:inc|ltd|llc|gmbh|ag|ab|bv|oy|sa|sas|sl|srl|pty|plc|labs|limited|corp|co)\.?$/i;

/** Whether a phrase names this product or its company ("Orbitly", "Orbitly Inc.", "we"). */
export function namesProduct(phrase: string, ctx: ProductContext): boolean {
  const p = normaliseText(phrase.replace(/[’']s\b/g, ''))
    .replace(/[.,;:]+$/, '')
    .trim();
  if (p === '') return false;
  if (SELF.test(p)) return true;
  return ctx.names.some((n) => {
    const name = normaliseText(n);
    return name !== '' && (containsPhrase(p, name) || (containsPhrase(name, p) && p.length >= 3));
  });
}

const LINKING = /\s+(?:was|were|is|are|has been|have been|had been|got|first|originally|officially|itself)$/i;

/** The few words right before position `at` in the sentence, without linking verbs and commas:
 * the subject of the verb that starts there. Empty when the sentence starts with that verb. */
export function subjectBefore(sentence: string, at: number): string {
  let before = sentence.slice(0, at).replace(/[\s,]+$/, '');
  for (let i = 0; i < 3; i++) before = before.replace(LINKING, '');
  const words = before.split(/\s+/).filter((w) => w !== '');
  return words.slice(-3).join(' ');
}

/** Whether the subject before `at` is this product, its company or "we" (or there is none). */
export function subjectIsProduct(sentence: string, at: number, ctx: ProductContext): boolean {
  const subject = subjectBefore(sentence, at);
  if (subject === '') return true;
  const words = subject.split(/\s+/);
  // "We", "Orbitly", "The company", "Orbitly Inc." as the nearest words before the verb.
  for (let n = 1; n <= words.length; n++) {
    const tail = words.slice(-n).join(' ');
    if (namesProduct(tail, ctx)) return true;
  }
  return false;
}

/** An organisation named right after a role or verb ("of Northwind", ", Bakehouse Labs"). */
export function organisationAfter(text: string): string | null {
  const m = /^\s*(?:of|at|@|for|,|–|—|-|\|)\s*((?:the\s+)?\p{Lu}[\p{L}\p{N}&.'’-]*(?:\s+(?:&\s+)?\p{Lu}[\p{L}\p{N}&.'’-]*){0,3})/u.exec(text);
  return m === null ? null : m[1]!;
}

export { COMPANY_SUFFIX };
