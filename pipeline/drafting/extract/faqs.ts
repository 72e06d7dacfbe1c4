// FAQs from FAQPage JSON-LD (only where question and answer are also visible), <details>
// blocks, <dl> lists and, on FAQ pages or under an FAQ heading, question headings followed by
// their answer paragraphs.
import type { Element } from 'cheerio';
import type { Proposed } from '../types.ts';
import { FAQ_ANSWER_MAX, FAQ_MAX, FAQ_QUESTION_MAX } from '../../../core/drafts/bounds.ts';
import { containsPhrase, normaliseText, truncateWords } from '../normalise.ts';
import { blockLines, type PageModel } from '../page-model.ts';
import { asNodes, nodesOf, textOf } from './json-ld.ts';
import { headingRank, type Sources } from './sources.ts';
import { cardGroups } from './cards.ts';
import { inThirdPartyBlock } from '../rules/index.ts';

type Faq = Proposed<{ question: string; answer: string }>;

const FAQ_HEADING = /\bfaqs?\b|frequently asked|common questions|questions/i;

function make(question: string, answerLines: string[], url: string): Faq | null {
  const q = question.trim();
  const lines = answerLines.filter((l) => l !== '');
  if (q === '' || q.length > FAQ_QUESTION_MAX || lines.length === 0) return null;
  const answer = truncateWords(lines.join('\n'), FAQ_ANSWER_MAX);
  return { value: { question: q, answer }, evidence: [{ quote: q, url }, ...lines.slice(0, 12).map((quote) => ({ quote, url }))] };
}

function fromJsonLd(src: Sources): Faq[] {
  const out: Faq[] = [];
  for (const { model, node } of nodesOf(src.models, ['faqpage'])) {
    for (const entity of asNodes(node.mainEntity)) {
      const question = textOf(entity.name);
      const answer =
        asNodes(entity.acceptedAnswer)
          .map((a) => textOf(a.text))
          .find((t) => t !== null) ?? null;
      if (question === null || answer === null) continue;
      // Both must be visible text; the page's own markup is no evidence.
      const where = [model, ...src.models.filter((m) => m !== model)].find(
        (m) => containsPhrase(m.norm, normaliseText(question)) && containsPhrase(m.norm, normaliseText(answer)),
      );
      if (where === undefined) continue;
      const faq = make(question, [answer], where.page.url);
      if (faq !== null) out.push(faq);
    }
  }
  return out;
}

function fromMarkup(src: Sources, model: PageModel, faqPage: boolean): Faq[] {
  const $ = model.$;
  const out: Faq[] = [];
  const url = model.page.url;
  $('details').each((_, el) => {
    const summary = $(el).children('summary').first();
    if (summary.length === 0) return;
    const question = blockLines(summary[0]!).join(' ');
    const answer = $(el)
      .children()
      .not('summary')
      .toArray()
      .flatMap((child) => blockLines(child));
    const faq = make(question, answer, url);
    if (faq !== null) out.push(faq);
  });
  $('dl').each((_, dl) => {
    $(dl)
      .children('dt')
      .each((_, dt) => {
        const question = blockLines(dt).join(' ');
        if (!faqPage && !question.endsWith('?')) return;
        const answer = $(dt)
          .nextUntil('dt', 'dd')
          .toArray()
          .flatMap((dd) => blockLines(dd));
        const faq = make(question, answer, url);
        if (faq !== null) out.push(faq);
      });
  });
  // Question headings: on an FAQ page, or inside a section under an FAQ heading.
  const underFaq = new Set<Element>();
  for (const { el } of src.headings(FAQ_HEADING, [model])) for (const node of src.section(model, el)) underFaq.add(node);
  $('h2, h3, h4, h5').each((_, heading) => {
    const question = blockLines(heading).join(' ');
    if (!question.endsWith('?')) return;
    const inFaq =
      faqPage ||
      $(heading)
        .parents()
        .toArray()
        .some((p) => underFaq.has(p)) ||
      underFaq.has(heading);
    if (!inFaq) return;
    const rank = headingRank(heading);
    const answer: string[] = [];
    for (let node = $(heading).next(); node.length > 0; node = node.next()) {
      const tag = node[0]!.name;
      if (/^h[1-6]$/.test(tag) && Number(tag.slice(1)) <= rank + 1) break;
      answer.push(...blockLines(node[0]!));
    }
    const faq = make(question, answer, url);
    if (faq !== null) out.push(faq);
  });
  return out;
}

/** Accordions in any markup: a control (button, summary, role=button, a toggle link) that
 * opens a panel, named by aria-controls or data-(bs-)target, or standing right after it (or
 * after the heading that wraps it). */
function fromAccordions(model: PageModel, faqPage: boolean): Faq[] {
  const $ = model.$;
  const out: Faq[] = [];
  $('[aria-controls], [data-bs-target], [data-target], [aria-expanded]').each((_, control) => {
    if (inThirdPartyBlock(control)) return;
    const question = blockLines(control).join(' ');
    if (!faqPage && !question.endsWith('?')) return;
    const ids = [
      ...(control.attribs['aria-controls'] ?? '').split(/\s+/),
      ...[control.attribs['data-bs-target'], control.attribs['data-target']].map((t) => (t ?? '').replace(/^#/, '')),
    ].filter((id) => /^[\w-]+$/.test(id));
    let panel: Element | undefined = ids.map((id) => $(`[id="${id}"]`)[0]).find((el) => el !== undefined && !$(el).find(control).length);
    if (panel === undefined) {
      const wrapper = $(control).parent();
      panel = $(control).next()[0] ?? (/^h[1-6]$/.test(wrapper[0]?.name ?? '') ? wrapper.next()[0] : undefined);
    }
    if (panel === undefined) return;
    const faq = make(question, blockLines(panel), model.page.url);
    if (faq !== null) out.push(faq);
  });
  return out;
}

/** Question cards: repeated same-shape blocks whose titles are questions, the rest the answer. */
function fromCards(model: PageModel): Faq[] {
  return cardGroups(model, 2)
    .filter((g) => g.kind === 'questions')
    .flatMap((g) =>
      g.cards.map((c) =>
        make(
          c.title.quote,
          c.rest.map((r) => r.quote),
          model.page.url,
        ),
      ),
    )
    .filter((f): f is Faq => f !== null);
}

export function extractFaqs(src: Sources): Faq[] {
  const all: Faq[] = [...fromJsonLd(src)];
  for (const model of src.ordered('faq', 'pricing', 'home')) {
    const faqPage = src.kind(model) === 'faq';
    all.push(...fromMarkup(src, model, faqPage), ...fromAccordions(model, faqPage), ...fromCards(model));
  }
  const seen = new Set<string>();
  const out: Faq[] = [];
  for (const faq of all) {
    const key = normaliseText(faq.value.question);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(faq);
    if (out.length >= FAQ_MAX) break;
  }
  return out;
}
