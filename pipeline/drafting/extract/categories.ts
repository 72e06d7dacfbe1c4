// Categories from the directory's own tree: the site's own sentences about the product (home,
// about and product pages; no menus, footers, testimonials, pricing or legal text) scored
// against every category's texts (category-match.ts). The best category above the threshold
// is the primary one; up to three more follow when they score close to it. The evidence is the
// sentences whose terms decided it.
import type { Evidence } from '../../../core/drafts/fields.ts';
import type { CategoryText, Proposed } from '../types.ts';
import { CATEGORY_THRESHOLD, CategoryIndex, terms } from '../category-match.ts';
import { normaliseText } from '../normalise.ts';
import { ownWords, type RuleContext } from '../rules/index.ts';
import { wordCount, type Sources } from './sources.ts';
import { blockLines } from '../page-model.ts';

const MAX_EXTRA = 3;
/** An extra category must score at least this share of the primary one. */
const EXTRA_SHARE = 0.6;
const MAX_EVIDENCE = 3;
const EXTRA_MIN_TERMS = 3;

/** The site's own lines about what the product is. */
export function productLines(src: Sources, ctx: RuleContext): Evidence[] {
  const out: Evidence[] = [];
  const seen = new Set<string>();
  for (const model of src.ordered('home', 'about', 'other')) {
    if (!['home', 'about', 'other'].includes(src.kind(model))) continue;
    const linkTexts = new Set(model.links.map((l) => normaliseText(blockLines(l.el).join(' '))));
    for (let i = 0; i < model.lines.length; i++) {
      const line = model.lines[i]!;
      const norm = model.normLines[i]!;
      if (wordCount(line) < 3 || line.length > 400 || seen.has(norm) || model.addressLines.has(norm) || linkRow(norm, linkTexts)) continue;
      const quote = { quote: line, url: model.page.url };
      if (!ownWords(quote, ctx)) continue;
      seen.add(norm);
      out.push(quote);
    }
  }
  return out;
}

/** A row of links ("Private roadmap · Changelog · X"): navigation, whatever element holds it. */
export function linkRow(norm: string, linkTexts: Set<string>): boolean {
  const parts = norm.split(/\s*[·|•]\s*/).filter((p) => p !== '');
  return parts.length > 1 && parts.every((p) => linkTexts.has(p));
}

export function extractTreeCategories(src: Sources, categories: readonly CategoryText[], ctx: RuleContext): Proposed<string[]> | null {
  if (categories.length === 0) return null;
  const index = new CategoryIndex(categories);
  const lines = productLines(src, ctx);
  const ranked = index.score(CategoryIndex.counts(lines.map((l) => l.quote)));
  const chosen: { name: string; evidence: Evidence[] }[] = [];
  const top = ranked[0];
  if (top === undefined || top.score < CATEGORY_THRESHOLD) return null;
  for (const candidate of ranked) {
    if (chosen.length > MAX_EXTRA) break;
    if (candidate.score < Math.max(CATEGORY_THRESHOLD, chosen.length === 0 ? 0 : top.score * EXTRA_SHARE)) break;
    // An extra category must be more than a side remark: three of its terms, not two.
    if (chosen.length > 0 && candidate.matched.length < EXTRA_MIN_TERMS) continue;
    const evidence = decidingLines(index, candidate.category, lines);
    if (evidence === null) continue;
    chosen.push({ name: candidate.category.name, evidence });
  }
  if (chosen.length === 0) return null;
  const evidence: Evidence[] = [];
  for (const c of chosen)
    for (const e of c.evidence) if (!evidence.some((x) => x.url === e.url && normaliseText(x.quote) === normaliseText(e.quote))) evidence.push(e);
  return { value: chosen.map((c) => c.name), evidence };
}

/** The lines richest in the category's terms, until they hold enough of them to support it. */
function decidingLines(index: CategoryIndex, category: CategoryText, lines: Evidence[]): Evidence[] | null {
  const doc = CategoryIndex.counts([category.name, category.description, ...(category.keywords ?? [])]);
  const weighed = lines
    .map((line) => {
      const matched = [...new Set(terms(line.quote))].filter((t) => doc.has(t));
      return { line, matched, weight: matched.reduce((s, t) => s + index.idfOf(t), 0) };
    })
    .filter((l) => l.matched.length > 0)
    .sort((a, b) => b.weight - a.weight);
  const out: Evidence[] = [];
  for (const l of weighed) {
    if (out.length >= MAX_EVIDENCE) break;
    out.push(l.line);
    if (
      index.supports(
        category,
        out.map((e) => e.quote),
      )
    )
      return out;
  }
  return null;
}
