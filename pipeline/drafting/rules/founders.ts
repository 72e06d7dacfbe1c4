// founders: people the site ties to this product as its founders or leaders: a team card
// ("Priya Raman" / "Co-founder & CEO"), "Jane Doe, co-founder of TallyHQ", "Orbitly was founded
// by ...". Never a person whose role is at another company ("Founder & CEO, Bakehouse Labs"),
// nor anyone named in a testimonial, review, case study, press quote or partner block (the
// quotes must be the site's own words, see context.ts), and a name must be a clean person name.
import { normaliseText, sentences } from '../normalise.ts';
import { namesProduct, organisationAfter, subjectIsProduct, type ProductContext } from './subject.ts';

export const ROLE =
  /\b(?:co-?founders?|founders?|founding (?:partner|team|engineer)|ceo|cto|coo|cfo|cpo|cmo|chief [a-z]+ officer|president|managing director|owner|(?:mit)?gründer(?:in)?|geschäftsführer(?:in)?)(?![\p{L}])/iu;
const ROLE_G = new RegExp(ROLE.source, 'gi');
const PARTICLE = /^(?:van|von|de|der|den|da|del|della|di|du|la|le|bin|al|el|ibn|ter|ten|dos|das|y)$/;
const NAME_WORD = /^\p{Lu}[\p{Ll}'’-]*(?:[-'’]\p{Lu}[\p{Ll}]+)?\.?$|^(?:Mc|Mac|O['’])\p{Lu}\p{Ll}+$/u;
// Words of site chrome and headings, which a glued or misread "name" is made of.
const NOT_A_NAME =
  /^(?:home|product|products|features?|pricing|plans?|about|blog|contact|login|log|sign|signup|team|our|meet|the|docs|careers|jobs|press|news|faq|help|support|company|founders?|ceo|cto|menu|search|start|free|get|book|demo|read|more|learn|why|how|what|who|new|all|and|or|of|by|with|us|we|my|your|inc|ltd|gmbh|labs|head|partner|customers?|case|study)$/i;

/** The value as a clean person name (2-4 capitalised words, no glued menu words), or null. */
export function personName(value: string): string | null {
  const name = value
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.,;:]+$/, '');
  if (name.length < 4 || name.length > 60 || /[\d@/|()]/.test(name)) return null;
  const words = name.split(' ');
  const named = words.filter((w) => !PARTICLE.test(w));
  if (named.length < 2 || words.length > 4) return null;
  for (const w of named) {
    if (!NAME_WORD.test(w) || NOT_A_NAME.test(w.replace(/\.$/, ''))) return null;
    // "ProductFeatures": a capital inside a word that is no name prefix is glued text.
    if (/\p{Ll}\p{Lu}/u.test(w) && !/^(?:Mc|Mac|O['’]|De|Di|La|Le)/.test(w)) return null;
  }
  return name;
}

/** Whether a role stated in the quote is at this product (or at no named company). */
export function roleIsHere(quote: string, ctx: ProductContext): boolean {
  for (const m of quote.matchAll(ROLE_G)) {
    let after = quote.slice(m.index! + m[0].length);
    // "Co-founder & CEO, Bakehouse": skip further role words to reach the company.
    for (let i = 0; i < 3; i++) {
      const more = /^\s*(?:&|and|,|\/)\s*/.exec(after);
      if (more === null) break;
      const rest = after.slice(more[0].length);
      const role = ROLE.exec(rest);
      if (role === null || role.index !== 0) break;
      after = rest.slice(role[0].length);
    }
    const org = organisationAfter(after);
    if (org !== null && !ROLE.test(org)) return namesProduct(org, ctx);
    return true;
  }
  return false;
}

/** "<Product> was founded by A and B", "We were founded by A", "Made by A (founder) in Toronto",
 * "<Produkt> wurde 2021 von A und B gegründet": the founding (or the making) is this product's. */
export function foundedByHere(sentence: string, name: string, ctx: ProductContext): boolean {
  const n = normaliseText(name);
  const m = /\b(?:co-?founded|founded|started|made|built|created)\b[^.]{0,80}?\bby\b/i.exec(sentence);
  if (m !== null && normaliseText(sentence.slice(m.index)).includes(n)) {
    // "Made by" says who makes it only when a person is named right after "by".
    const made = /^(?:made|built|created)$/i.test(m[0].split(/\s/)[0]!);
    if (
      !made ||
      normaliseText(sentence.slice(m.index + m[0].length))
        .trimStart()
        .startsWith(n)
    )
      return subjectIsProduct(sentence, m.index, ctx);
  }
  const de = /\bvon\s+([^.]{3,120}?)\s+gegründet\b/i.exec(sentence);
  if (de !== null && normaliseText(de[1]!).includes(n))
    return subjectIsProduct(sentence, sentence.search(/\bwurde\b/i) >= 0 ? sentence.search(/\bwurde\b/i) : de.index, ctx);
  return false;
}

/** Whether the quotes (the site's own words, on one page) tie the person to this product as a
 * founder or leader: the name on a line of its own or in a sentence, and a role at this
 * product in the same quotes. */
export function foundedHere(name: string, quotes: string[], ctx: ProductContext): boolean {
  if (quotes.some((q) => sentences(q).some((s) => foundedByHere(s, name, ctx)))) return true;
  // The role that follows the name in a sentence is the name's ("A, co-founder of X; B, CEO of Y").
  return quotes.some((q) => {
    const at = q.toLowerCase().indexOf(name.toLowerCase());
    const own = at >= 0 && q.length > name.length + 40 ? q.slice(at + name.length) : q;
    return ROLE.test(own) && roleIsHere(own, ctx);
  });
}
