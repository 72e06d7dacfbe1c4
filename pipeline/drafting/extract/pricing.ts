// Pricing from the pricing page (or a pricing section): each price line with the plan name
// just above it and the billing period just below; the model from those words only.
import type { Evidence } from '../../../core/drafts/fields.ts';
import type { Proposed } from '../types.ts';
import { sentences, truncateWords } from '../normalise.ts';
import type { PageModel } from '../page-model.ts';
import { hasPrice, pricingModelOf } from '../vocabulary.ts';
import type { Sources } from './sources.ts';
import { isInstructionLike, thirdPartyPage } from '../rules/index.ts';

const MONEY_LINE = (line: string) => line.length <= 60 && (hasPrice(line) || /^free forever$/i.test(line.trim()));
const PERIOD_LINE = /^(?:per|\/|a|an|each|billed|every)\b.{0,40}$/i;
const PLAN_NAME = (line: string) => line.length <= 40 && line.split(/\s+/).length <= 4 && !/\d/.test(line) && !/[.!?]$/.test(line);
const PLAN_LABEL = /^(?:most popular|best value|recommended|popular|for (?:\S+ ){0,3}\S+)$/i;
const MODEL_WORDS = /\b(?:free|freemium|open[- ]source|one[- ]time|lifetime|contact sales|custom pricing)\b/i;

function pricingScopes(src: Sources): { model: PageModel; lines: Evidence[] }[] {
  const scopes: { model: PageModel; lines: Evidence[] }[] = [];
  for (const model of src.models.filter((m) => src.kind(m) === 'pricing')) {
    scopes.push({ model, lines: model.lines.map((quote) => ({ quote, url: model.page.url })) });
  }
  if (scopes.length > 0) return scopes;
  for (const { model, el } of src.headings(/\b(pricing|plans)\b/i, src.ordered('home'))) {
    scopes.push({ model, lines: src.sectionLines(model, el) });
  }
  return scopes;
}

// Without a pricing page or section, a site may still say what it costs in its own words.
const STATED_MODEL =
  /\b(?:open[- ]source|free (?:plan|tier|forever|version|for (?:individuals|small teams|everyone))|(?:is|are) (?:completely |entirely |100% )?free)\b/i;

function statedModel(src: Sources): Proposed<string> | null {
  const pages = src.ordered('home', 'faq', 'about').filter((m) => ['home', 'faq', 'about'].includes(src.kind(m)));
  const stated: Evidence[] = [];
  for (const model of pages) {
    for (const line of model.lines) {
      const quote = { quote: line, url: model.page.url };
      // A question, or free "until launch" / "during the beta", states no pricing model.
      if (line.length > 200 || !STATED_MODEL.test(line) || line.includes('?') || /\b(?:until|during|for now|limited time)\b/i.test(line)) continue;
      if (!isInstructionLike(line) && !thirdPartyPage(quote.url)) stated.push(quote);
    }
  }
  const model = pricingModelOf(
    stated
      .slice(0, 3)
      .map((l) => l.quote)
      .join('\n'),
  );
  return model === null ? null : { value: model, evidence: stated.slice(0, 3) };
}

export function extractPricing(src: Sources): { model: Proposed<string> | null; summary: Proposed<string> | null } {
  const scopes = pricingScopes(src);
  if (scopes.length === 0) return { model: statedModel(src), summary: null };
  for (const scope of scopes) {
    const lines = scope.lines;
    const items: string[] = [];
    const used: Evidence[] = [];
    for (let i = 0; i < lines.length && items.length < 8; i++) {
      const line = lines[i]!.quote;
      const after = lines[i + 1]?.quote;
      // A bare "Free" is the price when no price follows it, else it is the plan's name.
      const isPrice = MONEY_LINE(line) || (/^free$/i.test(line.trim()) && (after === undefined || !MONEY_LINE(after)));
      if (!isPrice) continue;
      // The plan's name is the line above the price, or the one above that when a plan's label
      // ("Most popular", "For small teams") sits between its name and its price.
      const named = (k: number) => {
        const l = lines[k];
        return l !== undefined && PLAN_NAME(l.quote) && !MONEY_LINE(l.quote) ? l : null;
      };
      const label = lines[i - 1] !== undefined && PLAN_LABEL.test(lines[i - 1]!.quote.trim());
      const plan = (label ? named(i - 2) : null) ?? named(i - 1);
      const period = after !== undefined && PERIOD_LINE.test(after) ? after : null;
      items.push(`${plan === null ? '' : `${plan.quote}: `}${line}${period === null ? '' : ` ${period}`}`);
      if (plan !== null) used.push(plan);
      used.push(lines[i]!);
      if (period !== null) used.push(lines[i + 1]!);
    }
    if (items.length === 0) {
      // Prices said in sentences ("One plan: £29 per month per store."): those sentences are the summary.
      const priced = lines.flatMap((l) =>
        sentences(l.quote)
          .filter((s) => s.length <= 200 && (hasPrice(s) || MODEL_WORDS.test(s)))
          .map((s) => ({ quote: s, url: l.url })),
      );
      if (priced.some((l) => hasPrice(l.quote))) {
        const chosen = priced.slice(0, 4);
        const model = pricingModelOf(chosen.map((l) => l.quote).join('\n'));
        return {
          model: model === null ? null : { value: model, evidence: chosen },
          summary: { value: truncateWords(chosen.map((l) => l.quote).join(' '), 300), evidence: chosen },
        };
      }
      // No prices: a pricing page may still say "free and open source" or "contact sales".
      const stated = lines.filter((l) => l.quote.length <= 200 && MODEL_WORDS.test(l.quote)).slice(0, 3);
      const model = pricingModelOf(stated.map((l) => l.quote).join('\n'));
      return { model: model === null ? null : { value: model, evidence: stated }, summary: null };
    }
    const model = pricingModelOf(used.map((l) => l.quote).join('\n'));
    return {
      model: model === null ? null : { value: model, evidence: used },
      summary: { value: truncateWords(items.join('; '), 300), evidence: used },
    };
  }
  return { model: null, summary: null };
}
