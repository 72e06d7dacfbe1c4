// Facts stated in so many words: contact e-mail, company profile links, demo video. Each is read from visible text or visible links and quoted from the line
// that states it (or, for a link without text, the visible line nearest to it).
import type { Element } from 'cheerio';
import type { SocialPlatform } from '../../../core/drafts/fields.ts';
import type { Proposed } from '../types.ts';
import type { PageModel } from '../page-model.ts';
import { isPersonalProfile, isVideoUrl, socialPlatformOf } from '../vocabulary.ts';
import { hasAncestor, inChrome, type Sources } from './sources.ts';
import { nodesOf, ORGANIZATION } from './json-ld.ts';

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
      const link = model
        .$('a[href]')
        .toArray()
        .find((a) => (a.attribs.href ?? '').toLowerCase().startsWith(`mailto:${address}`));
      add(address, model, src.findLine(address, [model]) ?? (link === undefined ? null : src.nearQuote(model, link)));
    }
  }
  candidates.sort((a, b) => b.score - a.score);
  const best = candidates[0];
  return best === undefined ? null : { value: best.address, evidence: [best.quote] };
}

/** The site's own profile links: footer and header links first, then links on the home, about
 * and contact pages; never a link inside a person's card nor a personal LinkedIn profile. */
export function extractCompanySocials(src: Sources, personCards: Element[], productNames: string[] = []): Partial<Record<SocialPlatform, Proposed<string>>> {
  const out: Partial<Record<SocialPlatform, Proposed<string>>> = {};
  const cards = new Set(personCards);
  const passes: [PageModel[], boolean][] = [
    [src.models, true],
    [src.ordered('home', 'about', 'contact').filter((m) => ['home', 'about', 'contact'].includes(src.kind(m))), false],
  ];
  for (const [models, chromeOnly] of passes) {
    for (const model of models) {
      for (const link of model.links) {
        const platform = socialPlatformOf(link.url);
        if (platform === null || out[platform] !== undefined || isPersonalProfile(link.url)) continue;
        if (chromeOnly && !inChrome(link.el)) continue;
        // Outside the header and footer a profile link may be anyone's (a contributor, a customer):
        // there it counts only when its handle is the product's name.
        if (!chromeOnly && !handleIsProduct(link.url, productNames)) continue;
        if (hasAncestor(link.el, (e) => cards.has(e))) continue;
        const evidence = src.nearQuote(model, link.el);
        if (evidence !== null) out[platform] = { value: link.url, evidence: [evidence] };
      }
    }
  }
  // The organisation's JSON-LD sameAs: its own profiles, declared; the quote is the URL as the JSON writes it.
  for (const { model, node } of nodesOf(src.models, ORGANIZATION)) {
    const sameAs = Array.isArray(node.sameAs) ? node.sameAs : [node.sameAs];
    for (const url of sameAs) {
      if (typeof url !== 'string') continue;
      const platform = socialPlatformOf(url);
      if (platform === null || out[platform] !== undefined || isPersonalProfile(url)) continue;
      const raw = model.jsonLdTexts.find((t) => t.includes(JSON.stringify(url).slice(1, -1)));
      if (raw !== undefined) out[platform] = { value: url, evidence: [{ quote: JSON.stringify(url), url: model.page.url }] };
    }
  }
  return out;
}

const letters = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toLowerCase();

/** Whether the profile's handle (or repository) is named after the product. */
function handleIsProduct(url: string, names: string[]): boolean {
  let segments: string[];
  try {
    segments = new URL(url).pathname.split('/').filter((s) => s !== '' && !['company', 'in', 'c', 'channel', 'user'].includes(s));
  } catch {
    return false;
  }
  return segments.slice(0, 2).some((segment) => {
    const h = letters(segment);
    return names.some((n) => letters(n).length >= 3 && (h.includes(letters(n)) || letters(n).includes(h)) && h.length >= 3);
  });
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
