// Founders from team and about pages: a person's card (a name next to a founder or C-level
// title, and a bio paragraph), "Jane Doe, CEO" lines, "founded by ..." sentences, and JSON-LD
// founder entries whose names are visible. The primary founder's profile links in their card
// are the founder socials.
import type { AnyNode, Element } from 'cheerio';
import type { Evidence, SocialPlatform } from '../../../core/drafts/fields.ts';
import type { Proposed } from '../types.ts';
import { FOUNDERS_MAX } from '../../../core/drafts/bounds.ts';
import { normaliseText } from '../normalise.ts';
import { blockLines, type PageModel } from '../page-model.ts';
import { startsLine } from '../../crawl/page-text.ts';
import { socialPlatformOf } from '../vocabulary.ts';
import { asNodes, nodesOf, ORGANIZATION, textOf } from './json-ld.ts';
import { hasAncestor, wordCount, type Sources } from './sources.ts';
import { inThirdPartyBlock, jsonBlockMember, personName, thirdPartyPage } from '../rules/index.ts';

type Founder = Proposed<{ name: string; title: string | null; bio: string | null }>;

const ROLE =
  /\b(?:co-?founder|founder|founding partner|ceo|cto|coo|cfo|cpo|cmo|chief [a-z]+ officer|president|managing director|owner|(?:mit)?gründer(?:in)?|geschäftsführer(?:in)?)(?![\p{L}])/iu;
const NAME_WORD = "\\p{Lu}[\\p{L}'’.-]+";
// "Lotte de Vries", "Ludwig van Beethoven": lower-case particles between capitalised words.
const PARTICLES = '(?:van|von|de|der|den|da|del|della|di|du|la|le|bin|al|el|ter|ten|dos|das)';
const FULL_NAME = `${NAME_WORD}(?:\\s+(?:${PARTICLES}\\s+)?${NAME_WORD}){1,2}`;
const NAME = new RegExp(`^${NAME_WORD}(?:\\s+(?:${PARTICLES}\\s+)?${NAME_WORD}){1,3}$`, 'u');
const FOUNDED_BY = new RegExp(
  `\\b(?:co-?founded|founded|started)\\b[^.]{0,80}?\\bby\\s+(${FULL_NAME})(?:\\s*(?:,|and|&)\\s*(${FULL_NAME}))?(?:\\s*(?:,|and|&)\\s*(${FULL_NAME}))?`,
  'gu',
);
// "Made by Nora Lindqvist in Gothenburg", "made by Hana Sato (founder, ex-UX researcher)": the maker.
const MADE_BY = new RegExp(`\\b(?:[Mm]ade|[Bb]uilt|[Cc]reated)\\s+by\\s+(${FULL_NAME})(?=\\s*(?:\\(|,|\\.|$|\\s+in\\b|\\s+from\\b))`, 'gu');
// "Tafelwerk wurde 2021 in Köln von Julia Brandt und Timo Albers gegründet."
const FOUNDED_BY_DE = new RegExp(`\\bvon\\s+(${FULL_NAME})(?:\\s*(?:,|und|&)\\s*(${FULL_NAME}))?\\s+gegründet\\b`, 'gu');
// "Hugo Lefèvre, co-founder of Pagefold, spent ...": a name followed by its role in a sentence.
const NAME_COMMA_ROLE = new RegExp(`(?:^|[;,.]\\s+)(${FULL_NAME}),\\s+(?:the\\s+|our\\s+)?((?:co-?founder|founder|ceo|cto|coo)[^,;.]{0,60})`, 'giu');
const LEAF_CANDIDATES = 'h2, h3, h4, h5, h6, p, span, div, li, strong, b, em, small, figcaption, dt, dd';

const isName = (text: string) => NAME.test(text) && text.length <= 60 && !ROLE.test(text) && wordCount(text) <= 4 && personName(text) !== null;

interface Person {
  name: string;
  title: string | null;
  bio: string | null;
  evidence: Evidence[];
  card: Element | null;
  model: PageModel;
  /** Named only in JSON-LD, quoted as its JSON text. */
  declared?: boolean;
}

const textOfEl = (el: AnyNode) => blockLines(el).join(' ');

/** A name element next to the title element (before or after it), climbing two levels. */
function nameNear(model: PageModel, titleEl: Element): { name: string; el: Element; card: Element } | null {
  const $ = model.$;
  let node = $(titleEl);
  for (let level = 0; level < 3 && node.length > 0 && !node.is('body'); level++, node = node.parent()) {
    const around = [...node.prevAll().slice(0, 2).toArray(), ...node.nextAll().slice(0, 1).toArray()];
    for (const el of around) {
      const text = textOfEl(el);
      if (isName(text)) return { name: text, el, card: node.parent()[0] as Element };
    }
  }
  return null;
}

function fromCards(model: PageModel): Person[] {
  const $ = model.$;
  const out: Person[] = [];
  const url = model.page.url;
  if (!ROLE.test(model.norm) || thirdPartyPage(url)) return out;
  $(LEAF_CANDIDATES).each((_, el) => {
    if (inThirdPartyBlock(el)) return;
    if (el.children.some((c) => c.type === 'tag' && startsLine(c as Element))) return;
    const text = textOfEl(el);
    if (text === '' || text.length > 80 || !ROLE.test(text)) return;
    let name: string | null = null;
    let title: string | null = null;
    let card: Element | null = null;
    const parts = text.split(/\s*[,–—|·]\s*|\s+-\s+/);
    if (parts.length >= 2 && isName(parts[0]!) && ROLE.test(parts.slice(1).join(' '))) {
      name = parts[0]!;
      title = text.slice(text.indexOf(parts[1]!)).trim();
      card = (el.parent as Element | null) ?? null;
    } else {
      const near = nameNear(model, el);
      if (near === null) return;
      name = near.name;
      title = text;
      card = near.card;
    }
    if (out.some((p) => normaliseText(p.name) === normaliseText(name!))) return;
    const evidence: Evidence[] = [
      { quote: name, url },
      { quote: title, url },
    ];
    let bio: string | null = null;
    if (card !== null) {
      const para = $(card)
        .find('p')
        .toArray()
        .map((p) => textOfEl(p))
        .find((t) => wordCount(t) >= 8 && t !== text);
      if (para !== undefined) {
        bio = para;
        evidence.push({ quote: para, url });
      }
    }
    out.push({ name, title, bio, evidence, card, model });
  });
  return out;
}

// "Founders: Aoife Byrne (CEO) and Marc Dubois (CTO)."
const FOUNDERS_LIST = /^(?:the\s+)?(?:co-?)?founders?\s*:\s*(.+)$/i;

function fromList(line: string, url: string, model: PageModel): Person[] {
  const m = FOUNDERS_LIST.exec(line.replace(/[.]$/, ''));
  if (m === null) return [];
  return m[1]!.split(/\s*(?:,|;|&|\band\b)\s*(?![^()]*\))/).flatMap((entry) => {
    const role = /\(([^)]{1,60})\)/.exec(entry)?.[1] ?? null;
    const name = personName(entry.replace(/\([^)]*\)/g, ''));
    return name === null ? [] : [{ name, title: role ?? 'Co-founder', bio: null, evidence: [{ quote: line, url }], card: null, model }];
  });
}

function fromSentences(model: PageModel): Person[] {
  const out: Person[] = [];
  for (const line of model.lines) {
    out.push(...fromList(line, model.page.url, model));
    for (const match of line.matchAll(NAME_COMMA_ROLE)) {
      const name = personName(match[1]!);
      if (name !== null && isName(name))
        out.push({ name, title: match[2]!.trim(), bio: null, evidence: [{ quote: line, url: model.page.url }], card: null, model });
    }
    for (const match of line.matchAll(MADE_BY)) {
      const name = personName(match[1]!);
      if (name !== null && isName(name)) out.push({ name, title: null, bio: null, evidence: [{ quote: line, url: model.page.url }], card: null, model });
    }
    for (const match of [...line.matchAll(FOUNDED_BY), ...line.matchAll(FOUNDED_BY_DE)]) {
      const names = match
        .slice(1)
        .map((n) => (n === undefined ? null : personName(n)))
        .filter((n): n is string => n !== null && isName(n));
      for (const name of names) {
        out.push({ name, title: names.length > 1 ? 'Co-founder' : 'Founder', bio: null, evidence: [{ quote: line, url: model.page.url }], card: null, model });
      }
    }
  }
  return out;
}

function fromJsonLd(src: Sources): Person[] {
  const out: Person[] = [];
  for (const { model, node } of nodesOf(src.models, ORGANIZATION)) {
    for (const person of asNodes(node.founder ?? node.founders)) {
      const name = textOf(person.name);
      if (name === null || personName(name) === null) continue;
      const pages = src.ordered('team', 'about');
      const line = src.findLine(name, pages);
      if (line === null) {
        // Declared, not shown: the founder member's JSON text is the quote.
        const quote = jsonBlockMember(model.jsonLdTexts, node.founder !== undefined ? 'founder' : 'founders');
        if (quote?.includes(name))
          out.push({ name, title: 'Founder', bio: null, evidence: [{ quote, url: model.page.url }], card: null, model, declared: true });
        continue;
      }
      const job = textOf(person.jobTitle);
      const jobLine =
        job === null
          ? null
          : src.findLine(
              job,
              src.models.filter((m) => m.page.url === line.url),
            );
      out.push({
        name,
        title: jobLine !== null ? job : 'Founder',
        bio: null,
        evidence: jobLine === null ? [line] : [line, jobLine],
        card: null,
        model: src.models.find((m) => m.page.url === line.url)!,
      });
    }
  }
  return out;
}

export function extractPeople(src: Sources): {
  founders: Founder[];
  founderSocials: Partial<Record<SocialPlatform, Proposed<string>>>;
  cards: Element[];
} {
  const people: Person[] = [];
  const add = (person: Person) => {
    const existing = people.find((p) => normaliseText(p.name) === normaliseText(person.name));
    if (existing === undefined) people.push(person);
    else if (existing.title === null && person.title !== null)
      Object.assign(existing, { title: person.title, evidence: [...existing.evidence, ...person.evidence] });
  };
  for (const model of src.ordered('team', 'about', 'home')) fromCards(model).forEach(add);
  for (const model of src.ordered('about', 'team', 'home')) fromSentences(model).forEach(add);
  // A founder the JSON-LD declares but no page shows counts only where the pages name no one:
  // where both exist, the visible page decides.
  const declared = fromJsonLd(src);
  declared.filter((p) => p.declared !== true).forEach(add);
  if (people.length === 0) declared.forEach(add);

  // Founders first, then other leaders, in page order.
  const founderFirst = [...people].sort((a, b) => Number(/found/i.test(b.title ?? '')) - Number(/found/i.test(a.title ?? '')));
  const chosen = founderFirst.slice(0, FOUNDERS_MAX);
  const founders = chosen.map((p) => ({ value: { name: p.name, title: p.title, bio: p.bio }, evidence: p.evidence }));

  const founderSocials: Partial<Record<SocialPlatform, Proposed<string>>> = {};
  const primary = chosen[0];
  // A "card" that also holds another person's name is a whole list of people: its links are not
  // this founder's own, so none are taken rather than a mix of everyone's.
  const others = people.filter((p) => p !== primary).map((p) => normaliseText(p.name));
  const ownCard = primary?.card != null && !others.some((o) => normaliseText(blockLines(primary.card!).join(' ')).includes(o));
  if (primary?.card != null && ownCard) {
    const model = primary.model;
    for (const link of model.links) {
      if (!hasAncestor(link.el, (e) => e === primary.card)) continue;
      const platform = socialPlatformOf(link.url);
      if (platform === null || founderSocials[platform] !== undefined) continue;
      const evidence = src.nearQuote(model, link.el);
      if (evidence !== null) founderSocials[platform] = { value: link.url, evidence: [evidence] };
    }
  }
  return { founders, founderSocials, cards: people.map((p) => p.card).filter((c): c is Element => c !== null) };
}
