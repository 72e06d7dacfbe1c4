// Facts stated in so many words: founding year, location, contact e-mail, company profile
// links, demo video. Each is read from visible text or visible links and quoted from the line
// that states it (or, for a link without text, the visible line nearest to it).
import type { Element } from 'cheerio';
import type { SocialPlatform } from '../../../core/drafts/fields.ts';
import type { Proposed } from '../types.ts';
import { countryCode } from '../countries.ts';
import { sentences } from '../normalise.ts';
import type { PageModel } from '../page-model.ts';
import { isPersonalProfile, isVideoUrl, socialPlatformOf } from '../vocabulary.ts';
import { asNodes, nodesOf, ORGANIZATION, textOf } from './json-ld.ts';
import { hasAncestor, inChrome, type Sources } from './sources.ts';

const YEAR = '(1[89]\\d{2}|20\\d{2})';
const FOUNDED_PATTERNS = [
  new RegExp(`\\b(?:founded|established|incorporated)\\b[^.\\n]{0,40}?\\b${YEAR}\\b`, 'i'),
  new RegExp(`\\b(?:since|est\\.?)\\s+${YEAR}\\b`, 'i'),
  new RegExp(`\\b(?:in|since)\\s+${YEAR},?\\s+(?:we|\\p{Lu}[\\p{L}]*)\\s+(?:was\\s+)?(?:founded|started|began)\\b`, 'iu'),
];

export function extractFoundedYear(src: Sources, now: Date): Proposed<string> | null {
  for (const model of src.ordered('about', 'team', 'home', 'contact')) {
    for (const line of model.lines) {
      for (const sentence of sentences(line)) {
        for (const pattern of FOUNDED_PATTERNS) {
          const match = pattern.exec(sentence);
          if (match === null || Number(match[1]) > now.getUTCFullYear()) continue;
          const quote = sentence.length <= 400 ? sentence : match[0];
          return { value: match[1]!, evidence: [{ quote, url: model.page.url }] };
        }
      }
    }
  }
  return null;
}

const PLACE = "(?:the\\s+)?\\p{Lu}[\\p{L}.'’-]*(?:[ -](?:of\\s+|de\\s+)?\\p{Lu}[\\p{L}.'’-]*){0,3}";
// Keywords in either case, place names capitalised.
const LOCATED = new RegExp(`\\b(?:[Bb]ased|[Hh]eadquartered|[Ll]ocated|HQ|[Oo]ffices?\\s+(?:is|are))\\s+in\\s+(${PLACE})(?:,\\s*(${PLACE}))?(?:,\\s*(${PLACE}))?`, 'gu');
const NOT_A_CITY = /^(?:the\s+)?(?:europe|asia|africa|oceania|north america|south america|latin america|eu|bay area|cloud|world)$/i;

export function extractLocation(src: Sources): { city: Proposed<string> | null; country: Proposed<string> | null } {
  for (const model of src.ordered('about', 'contact', 'home', 'team')) {
    for (const line of model.lines) {
      for (const match of line.matchAll(LOCATED)) {
        const parts = match.slice(1).filter((p): p is string => p !== undefined).map((p) => p.trim());
        const sentence = sentences(line).find((s) => s.includes(match[0])) ?? line;
        const evidence = [{ quote: sentence.length <= 400 ? sentence : match[0], url: model.page.url }];
        const last = parts[parts.length - 1]!;
        const code = countryCode(last);
        const cityName = parts.length >= 2 || code === null ? parts[0]! : null;
        const city = cityName !== null && countryCode(cityName) === null && !NOT_A_CITY.test(cityName) ? cityName : null;
        if (city === null && code === null) continue;
        return {
          city: city === null ? null : { value: city, evidence },
          country: code === null ? null : { value: code, evidence },
        };
      }
    }
  }
  // schema.org PostalAddress, where the locality (and country name) are on the visible page.
  for (const { node } of nodesOf(src.models, ORGANIZATION)) {
    for (const address of asNodes(node.address)) {
      const locality = textOf(address.addressLocality);
      if (locality === null) continue;
      const line = src.findLine(locality, src.ordered('contact', 'about', 'home'));
      if (line === null) continue;
      const countryText = textOf(address.addressCountry) ?? textOf(asNodes(address.addressCountry)[0]?.name);
      const code = countryText === null ? null : /^[A-Za-z]{2}$/.test(countryText) ? countryText.toUpperCase() : countryCode(countryText);
      return { city: { value: locality, evidence: [line] }, country: code === null ? null : { value: code, evidence: [line] } };
    }
  }
  return { city: null, country: null };
}

// Matched per whitespace-separated word of at most 254 characters, so a long line without
// spaces cannot make the pattern backtrack quadratically.
const EMAIL_WORD = /^[("'<]*([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})[)"'>.,;:!?]*$/;
const ROLE_ADDRESS = /^(hello|hi|contact|info|support|team|sales|press|help|mail|office)@/;

export function extractEmail(src: Sources): Proposed<string> | null {
  const site = src.home === undefined ? '' : new URL(src.home.page.url).hostname.replace(/^www\./, '');
  const candidates: { address: string; score: number; quote: { quote: string; url: string } }[] = [];
  const add = (address: string, model: PageModel, quote: { quote: string; url: string } | null) => {
    const a = address.toLowerCase();
    if (quote === null || /\.(png|jpe?g|gif|svg|webp)$/.test(a) || /example\.(com|org)$/.test(a)) return;
    const score = (a.endsWith(`@${site}`) || a.endsWith(`.${site}`) ? 2 : 0) + (ROLE_ADDRESS.test(a) ? 1 : 0) + (src.kind(model) === 'contact' ? 1 : 0);
    candidates.push({ address: a, score, quote });
  };
  for (const model of src.ordered('contact', 'home', 'about')) {
    for (const line of model.lines) {
      if (!line.includes('@')) continue;
      for (const word of line.split(/\s+/)) {
        const match = word.length <= 254 ? EMAIL_WORD.exec(word) : null;
        if (match !== null) add(match[1]!, model, src.findLine(match[1]!, [model]));
      }
    }
    for (const address of model.mailtos) {
      const link = model.$('a[href]').toArray().find((a) => (a.attribs.href ?? '').toLowerCase().startsWith(`mailto:${address}`));
      add(address, model, src.findLine(address, [model]) ?? (link === undefined ? null : src.nearQuote(model, link)));
    }
  }
  candidates.sort((a, b) => b.score - a.score);
  const best = candidates[0];
  return best === undefined ? null : { value: best.address, evidence: [best.quote] };
}


/** The site's own profile links: footer and header links first, then links on the home, about
 * and contact pages; never a link inside a person's card nor a personal LinkedIn profile. */
export function extractCompanySocials(src: Sources, personCards: Element[]): Partial<Record<SocialPlatform, Proposed<string>>> {
  const out: Partial<Record<SocialPlatform, Proposed<string>>> = {};
  const cards = new Set(personCards);
  const passes: [PageModel[], boolean][] = [[src.models, true], [src.ordered('home', 'about', 'contact').filter((m) => ['home', 'about', 'contact'].includes(src.kind(m))), false]];
  for (const [models, chromeOnly] of passes) {
    for (const model of models) {
      for (const link of model.links) {
        const platform = socialPlatformOf(link.url);
        if (platform === null || out[platform] !== undefined || isPersonalProfile(link.url)) continue;
        if (chromeOnly && !inChrome(link.el)) continue;
        if (hasAncestor(link.el, (e) => cards.has(e))) continue;
        const evidence = src.nearQuote(model, link.el);
        if (evidence !== null) out[platform] = { value: link.url, evidence: [evidence] };
      }
    }
  }
  return out;
}

const DEMO_WORDS = /\b(demo|watch|video|tour|walkthrough|in action|see how)\b/i;

export function extractDemoVideo(src: Sources): Proposed<string> | null {
  for (const model of src.ordered('home', 'other')) {
    const embed = model.media.find((m) => isVideoUrl(m.url));
    if (embed !== undefined) {
      const evidence = src.nearQuote(model, embed.near);
      if (evidence !== null) return { value: embed.url, evidence: [evidence] };
    }
  }
  const links = src.models.flatMap((model) => model.links.filter((l) => isVideoUrl(l.url)).map((link) => ({ model, link })));
  const scored = links.map(({ model, link }) => {
    const evidence = src.nearQuote(model, link.el);
    const near = evidence?.quote ?? '';
    return { model, link, evidence, score: DEMO_WORDS.test(near) ? 1 : 0 };
  });
  scored.sort((a, b) => b.score - a.score);
  const best = scored.find((s) => s.evidence !== null);
  return best === undefined ? null : { value: best.link.url, evidence: [best.evidence!] };
}
