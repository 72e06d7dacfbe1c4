// Key phrases in the site's own words: noun phrases found by wink-nlp's English model (part of
// speech patterns such as adjective + noun, noun + noun), read from the same own-words product
// lines the categories are chosen from (no menus, footers, testimonials, legal or pricing
// blocks), ranked by how often the site says them and whether its title and headings do, each
// quoted by a line that holds it.
import winkNLP, { type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import type { Evidence } from '../../../core/drafts/fields.ts';
import type { Proposed } from '../types.ts';
import { containsPhrase, normaliseText } from '../normalise.ts';
import type { RuleContext } from '../rules/index.ts';
import { productLines } from './categories.ts';
import { describesProduct } from './identity.ts';
import { STAGES } from '../vocabulary.ts';
import type { Sources } from './sources.ts';

let nlp: WinkMethods | null = null;
function reader(): WinkMethods {
  if (nlp === null) {
    nlp = winkNLP(model);
    nlp.learnCustomEntities([{ name: 'phrase', patterns: ['[ADJ|NOUN|PROPN] [NOUN|PROPN] [NOUN]', '[ADJ|NOUN|PROPN] [NOUN]', '[NOUN]', '[PROPN]'] }]);
  }
  return nlp;
}

// Nouns every site uses of itself or its visitors; they name no topic.
const GENERIC = new Set(
  (
    'team teams customer customers user users people person way ways day days minute minutes hour hours time times week weeks month ' +
    'months year years everything anything nothing something thing things one ones place world site sites page pages website ' +
    'app apps tool tools platform software product products company business businesses feature features plan plans price ' +
    'prices pricing work life part kind lot lots number list click link minute second home blog login account email support ' +
    'question questions answer answers help use care hand end start today tomorrow future reason reasons note notes inc ltd gmbh'
  ).split(' '),
);
// Leading words that say how big or good a thing is, not what it is.
const FILLER =
  /^(?:tiny|small|big|large|simple|easy|new|best|better|great|good|fast|smart|powerful|modern|whole|entire|every|each|other|more|most|many|few|first|last|real|true|own|single|same|perfect|beautiful)\s+/;

const MAX_PHRASES = 8;
const PERSON_LINE = /^\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){1,2}\s*[,–—|]/u;
const MAX_WORDS = 3;

interface Candidate {
  phrase: string;
  key: string;
  score: number;
  evidence: Evidence;
}

/** Key phrases of the site, best first, each with a line that says it. */
export function keyPhrases(src: Sources, ctx: RuleContext, exclude: string[] = []): Candidate[] {
  const its = reader().its;
  const skip = new Set(exclude.flatMap((e) => [normaliseText(e), ...normaliseText(e).split(' ')]));
  // Lines about the product itself: not a customer's quote, a price or legal line, a person's
  // name and role, or a stage ("in private beta"), whose words belong to other fields.
  const lines = productLines(src, ctx).filter((l) => describesProduct(l.quote) && !PERSON_LINE.test(l.quote) && !STAGES.some(([stage]) => stage.test(l.quote)));
  const headingKeys = new Set(
    src.models
      .filter((m) => ['home', 'other'].includes(src.kind(m)))
      .flatMap((m) => [...m.headings.filter((h) => h.rank <= 3).map((h) => normaliseText(h.text)), normaliseText(m.page.title ?? '')]),
  );
  const found = new Map<string, Candidate>();
  for (const line of lines) {
    const doc = reader().readDoc(line.quote);
    const normLine = normaliseText(line.quote);
    for (const raw of doc.customEntities().out(its.value) as string[]) {
      let phrase = normaliseText(raw)
        .replace(FILLER, '')
        .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      // "Beamly records": the product's name is no part of a topic.
      while (phrase.includes(' ') && skip.has(phrase.split(' ')[0]!)) phrase = phrase.slice(phrase.indexOf(' ') + 1);
      const words = phrase.split(' ');
      if (phrase.length < 3 || words.length > MAX_WORDS || phrase.length > 60) continue;
      if (words.every((w) => GENERIC.has(w) || GENERIC.has(w.replace(/s$/, ''))) || skip.has(phrase)) continue;
      if (words.some((w) => skip.has(w)) && words.length === 1) continue;
      if (!containsPhrase(normLine, phrase)) continue;
      const key = phrase.replace(/s\b/g, '');
      const inHeading = [...headingKeys].some((h) => containsPhrase(h, phrase));
      const gain = (words.length > 1 ? 1.5 : 1) * (inHeading ? 2 : 1);
      const existing = found.get(key);
      if (existing === undefined) found.set(key, { phrase, key, score: gain, evidence: line });
      else existing.score += gain;
    }
  }
  // A single word needs to be said more than once, or in a heading.
  return [...found.values()].filter((c) => c.phrase.includes(' ') || c.score >= 2).sort((a, b) => b.score - a.score);
}

/** The site's key phrases as a keyword list. */
export function phraseList(candidates: Candidate[], max = MAX_PHRASES): Proposed<string[]> | null {
  const chosen = candidates.slice(0, max);
  return chosen.length === 0 ? null : { value: chosen.map((c) => c.phrase), evidence: chosen.map((c) => c.evidence) };
}
