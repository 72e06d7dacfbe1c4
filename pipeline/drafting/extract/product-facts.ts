// Founding year, location and stage: read from sentences and address lines in the site's own
// words, and proposed only when the same rules the evidence check applies (rules/) say the
// sentence is about this product or company, so a passing mention is never the one chosen.
import type { Evidence } from '../../../core/drafts/fields.ts';
import type { Proposed } from '../types.ts';
import { countryCode, countryNames } from '../countries.ts';
import { sentences } from '../normalise.ts';
import type { PageModel } from '../page-model.ts';
import {
  addressLine,
  datedPage,
  jsonMember,
  linkLabel,
  postalTown,
  STREET,
  ownWords,
  quoteStatesFounding,
  stageOf,
  statesCurrentStage,
  statesLocation,
  thirdPartyPage,
  type RuleContext,
} from '../rules/index.ts';
import { asNodes, nodesOf, ORGANIZATION, textOf } from './json-ld.ts';
import type { Sources } from './sources.ts';

const MAX_QUOTE = 400;

/** Own-words sentences of the pages, in the given page order, each with its quote. */
function* ownSentences(_src: Sources, ctx: RuleContext, pages: PageModel[]): Generator<{ sentence: string; quote: Evidence; model: PageModel }> {
  for (const model of pages) {
    if (thirdPartyPage(model.page.url)) continue;
    for (const line of model.lines) {
      for (const sentence of line.length <= MAX_QUOTE ? [line, ...sentences(line)] : sentences(line)) {
        if (sentence.length > MAX_QUOTE) continue;
        const quote = { quote: sentence, url: model.page.url };
        if (ownWords(quote, ctx)) yield { sentence, quote, model };
      }
    }
  }
}

export function extractFoundedYear(src: Sources, ctx: RuleContext, now: Date): Proposed<string> | null {
  for (const { sentence, quote } of ownSentences(src, ctx, src.ordered('about', 'team', 'home', 'contact'))) {
    for (const year of sentence.match(/\b(?:1[89]\d{2}|20\d{2})\b/g) ?? []) {
      if (Number(year) > now.getUTCFullYear()) continue;
      if (quoteStatesFounding(sentence, year, ctx)) return { value: year, evidence: [quote] };
    }
  }
  // Nothing visible states it: the organisation's own JSON-LD foundingDate, quoted as JSON.
  for (const { model, node } of nodesOf(src.models, ORGANIZATION)) {
    const year = /^(\d{4})\b/.exec(textOf(node.foundingDate) ?? '')?.[1];
    if (year === undefined || Number(year) > now.getUTCFullYear()) continue;
    const quote = jsonMember(model.jsonLdTexts, 'foundingDate', (v) => v.startsWith(year));
    if (quote !== null) return { value: year, evidence: [{ quote, url: model.page.url }] };
  }
  return null;
}

export function extractStage(src: Sources, ctx: RuleContext): Proposed<string> | null {
  const pages = src.ordered('home', 'about', 'pricing').filter((m) => !datedPage(m.page.url));
  for (const { sentence, quote } of ownSentences(src, ctx, pages)) {
    const label = stageOf(sentence);
    if (label !== null && statesCurrentStage(sentence, label) && !linkLabel(quote, ctx)) return { value: label, evidence: [quote] };
  }
  return null;
}

const SEPARATORS = /\s*(?:,|·|•|\||–|—)\s*/;
const PLACE = /^(?:the\s+)?\p{Lu}[\p{L}.'’-]*(?:[ -](?:of\s+|de\s+|am\s+)?\p{Lu}[\p{L}.'’-]*){0,3}$/u;
const NOT_A_CITY = /^(?:the\s+)?(?:europe|asia|africa|oceania|north america|south america|latin america|eu|bay area|cloud|world)$/i;

// Trailing flags and emoji ("Made in Lisbon, Portugal 🇵🇹") are no part of a place name.
const clean = (part: string) =>
  part
    .replace(/[^\p{L}\p{N}.)]+$/u, '')
    .replace(/[.;:!?]+$/, '')
    .trim();
// Postcodes with letters: British "LS1 4AB", Irish "D02 A342", Canadian "T2P 1J9".
const ALNUM_POSTCODE = /\b(?:[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}|[A-Z]\d{2}\s?[A-Z\d]{4}|[A-Z]\d[A-Z]\s?\d[A-Z]\d)\b/g;
/** "1100-053 Lisbon", "111 57 Stockholm", "1015 CV Amsterdam", "Lisbon 1100", "Leeds LS1 4AB": the place name. */
const withoutPostcode = (part: string) =>
  clean(part)
    .replace(ALNUM_POSTCODE, ' ')
    .replace(/^(?:[A-Z]{1,2}-)?[\d][\d\s-]*(?:[A-Z]{2}\s+)?/, '')
    .replace(/\s+\d[\d\s-]*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
/** A part of an address that names a street, not a town ("5 Mill Lane", "Ehrenstraße 41"). */
const isStreet = (part: string) => STREET.test(part) || /\p{Ll}(?:straße|strasse|gasse|weg|platz|vej|gatan|vägen|katu)\b/u.test(part);

/** City and country candidates a sentence or address line names, most specific first. */
function placesIn(sentence: string): { city: string | null; country: string | null }[] {
  const out: { city: string | null; country: string | null }[] = [];
  // "... in Munich, Germany", "... in 2018 in Dublin, Ireland": the places after each "in".
  for (const m of sentence.matchAll(/\b(?:in|at|from|out of)\s+/g)) {
    const rest = sentence
      .slice(m.index! + m[0].length)
      .split(/[.;:!?()]/)[0]!
      .slice(0, 80);
    const parts = rest
      .split(SEPARATORS)
      .map(clean)
      .filter((p) => p !== '');
    const places: string[] = [];
    for (const part of parts) {
      const name = part.replace(/\s+(?:and|for|with|since|where|when|but)\b.*$/i, '');
      if (!PLACE.test(name)) break;
      places.push(name);
      if (name !== part) break;
    }
    if (places.length === 0) continue;
    const country = places.map((p) => (countryCode(p) === null ? null : p)).find((p) => p !== null) ?? null;
    const city = countryCode(places[0]!) === null ? places[0]! : null;
    out.push({ city, country });
  }
  // Address lines: "Lumio Ltd · 14 Rua Augusta, 1100-053 Lisbon, Portugal", "Kanbo Oy, Helsinki, Finland".
  const parts = sentence
    .split(SEPARATORS)
    .map(clean)
    .filter((p) => p !== '');
  const at = parts.findIndex((p) => countryCode(p) !== null);
  if (at >= 0) {
    const withCode = parts
      .slice(0, at)
      .reverse()
      .find((p) => /\d/.test(p) && !isStreet(p) && PLACE.test(withoutPostcode(p)));
    const before = at > 0 ? parts[at - 1]! : null;
    const city = withCode !== undefined ? withoutPostcode(withCode) : before !== null && !isStreet(before) && PLACE.test(before) ? before : null;
    out.push({ city, country: parts[at]! });
  } else if (parts.length >= 2 && parts.length <= 3 && parts.every((p) => PLACE.test(p))) {
    // "Calgary, Alberta" on an address line.
    out.push({ city: parts[0]!, country: null });
  }
  return out;
}

export function extractLocation(src: Sources, ctx: RuleContext): { city: Proposed<string> | null; country: Proposed<string> | null } {
  let city: Proposed<string> | null = null;
  let country: Proposed<string> | null = null;
  const pages = src.ordered('about', 'contact', 'home', 'team').filter((m) => !datedPage(m.page.url));
  for (const { sentence, quote } of ownSentences(src, ctx, pages)) {
    const inAddress = addressLine(quote, ctx);
    for (const place of placesIn(sentence)) {
      const c = place.city !== null && !NOT_A_CITY.test(place.city) && countryCode(place.city) === null ? place.city : null;
      if (city === null && c !== null && statesLocation(sentence, c, ctx, inAddress)) city = { value: c, evidence: [quote] };
      if (country === null && place.country !== null && statesLocation(sentence, place.country, ctx, inAddress)) {
        country = { value: countryCode(place.country)!, evidence: [quote] };
      }
    }
    if (city !== null && country !== null) break;
  }
  if (city !== null && country !== null) return { city, country };
  // A postal address written as lines, the town's line above the country's (imprints, contact pages).
  for (const model of src.ordered('contact', 'about', 'home')) {
    if (thirdPartyPage(model.page.url) || datedPage(model.page.url)) continue;
    for (let i = 1; i < model.lines.length; i++) {
      const code = countryCode(clean(model.lines[i]!));
      const town = postalTown(model.lines[i - 1]!);
      if (code === null || town === null || NOT_A_CITY.test(town)) continue;
      const townLine = { quote: model.lines[i - 1]!, url: model.page.url };
      const countryLine = { quote: model.lines[i]!, url: model.page.url };
      if (!ownWords(townLine, ctx)) continue;
      city ??= { value: town, evidence: [townLine] };
      country ??= { value: code, evidence: [countryLine] };
      break;
    }
    if (city !== null && country !== null) return { city, country };
  }
  // schema.org PostalAddress, where the locality and country are visible lines of the site.
  for (const { model, node } of nodesOf(src.models, ORGANIZATION)) {
    for (const address of asNodes(node.address)) {
      const locality = textOf(address.addressLocality);
      const countryText = textOf(address.addressCountry) ?? textOf(asNodes(address.addressCountry)[0]?.name);
      const code = countryText === null ? null : /^[A-Za-z]{2}$/.test(countryText) ? countryText.toUpperCase() : countryCode(countryText);
      const stated = (place: string) => {
        const line = src.findLine(place, src.ordered('contact', 'about', 'home'));
        return line !== null && statesLocation(line.quote, place, ctx, addressLine(line, ctx)) ? line : null;
      };
      if (city === null && locality !== null) {
        const line = stated(locality);
        // Not shown as a line of the site: the address's JSON text is the quote.
        const declared = line === null ? jsonMember(model.jsonLdTexts, 'addressLocality', (v) => v === locality) : null;
        if (line !== null) city = { value: locality, evidence: [line] };
        else if (declared !== null) city = { value: locality, evidence: [{ quote: declared, url: model.page.url }] };
      }
      if (country === null && code !== null) {
        for (const name of countryNamesFor(code)) {
          const line = stated(name);
          if (line !== null) {
            country = { value: code, evidence: [line] };
            break;
          }
        }
        const declared = country === null && countryText !== null ? jsonMember(model.jsonLdTexts, 'addressCountry', (v) => v === countryText) : null;
        if (declared !== null) {
          country = { value: code, evidence: [{ quote: declared, url: model.page.url }] };
        }
      }
    }
  }
  return { city, country };
}

const countryNamesFor = (code: string) => (countryNames(code) ?? []).map((n) => n.replace(/\b\p{L}/gu, (c) => c.toUpperCase()));
