// The evidence check every drafter's output passes before it is stored. A value survives only
// with at least one quote found word for word in the crawled visible text (quotes.ts) that
// also supports it (field-rules.ts); otherwise it is dropped, and an absent field means
// not_found. Then the spec's bounds are enforced (bounds.ts): lists cut to 20 items, list items
// over 200 characters dropped, long-form text cut at a word boundary, other over-long values
// dropped, collections capped (10 FAQs, 6 founders, 50 milestones).
import type { CrawledPage } from '../crawl/crawl-site.ts';
import {
  DRAFT_LIST_FIELDS,
  DRAFT_TEXT_FIELDS,
  SOCIAL_PLATFORMS,
  STORY_SECTIONS,
  type DraftFieldName,
  type DraftListField,
  type DraftTextField,
  type Evidence,
  type SocialPlatform,
  type StorySection,
} from '../../core/drafts/fields.ts';
import type { CategoryText, ComparisonProposal, DraftProposal, Proposed } from './types.ts';
import {
  COMPARISON_POINTS_MAX,
  COMPARISON_TOPIC_MAX,
  COMPARISON_VALUE_MAX,
  FAQ_ANSWER_MAX,
  FAQ_MAX,
  FAQ_QUESTION_MAX,
  FOUNDER_BIO_MAX,
  FOUNDER_NAME_MAX,
  FOUNDER_TITLE_MAX,
  FOUNDERS_MAX,
  LIST_ITEM_MAX,
  LIST_MAX_ITEMS,
  MILESTONE_DESCRIPTION_MAX,
  MILESTONE_TITLE_MAX,
  MILESTONE_URL_MAX,
  MILESTONES_MAX,
  SOCIAL_URL_MAX,
  STORY_SECTION_MAX,
  STORY_TITLE_MAX,
} from '../../core/drafts/bounds.ts';
import { AI_TEXT_MAX, TRUNCATED_FIELDS } from './bounds.ts';
import {
  category,
  CategoryTree,
  cleanText,
  comparisonValue,
  email,
  LABEL_SUPPORT,
  linkTo,
  milestoneDate,
  phrase,
  pricingModel,
  productCity,
  productCountry,
  productFounder,
  productFoundedYear,
  productStage,
  social,
  textSupported,
  type PageOf,
  type RuleContext,
  type Supported,
} from './field-rules.ts';
import { productNames } from './rules/index.ts';
import { containsPhrase, normaliseText, truncateWords } from './normalise.ts';
import { pageNorm, Site } from './quotes.ts';

export interface CheckOptions {
  /** list_categories names. Without them no category can be checked, so categories are dropped. */
  categoryNames?: readonly string[];
  /** The category tree's texts: a category may then be given by name or slug, and is supported
   * by quotes about it (its terms) even where they do not name it. */
  categories?: readonly CategoryText[];
  /** "Now" for the founded-year bound (tests pin it). */
  now?: Date;
}

export const emptyProposal = (): DraftProposal => ({
  fields: {},
  faqs: [],
  founders: [],
  company_socials: {},
  founder_socials: {},
  story: {},
  milestones: [],
});

// Facts a page may declare in JSON-LD (or, for the logo, in an image's alt text or file name)
// without showing them as text; their rules accept such a quote only as a declaration of that
// fact (rules/declared.ts). Every other field needs visible text.
const DECLARED_FIELDS = new Set<DraftTextField>(['founded_year', 'city', 'country', 'logo_url']);

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

function checkTextField(field: DraftTextField, raw: unknown, evidence: Evidence[], ctx: RuleContext, now: Date): Supported<string> | null {
  const pageOf = ctx.pageOf;
  const value = str(raw);
  if (value === null) return null;
  const max = AI_TEXT_MAX[field];
  let out: Supported<string> | null;
  switch (field) {
    case 'name':
      out = phrase(value, evidence);
      break;
    case 'city':
      out = productCity(value, evidence, ctx);
      break;
    case 'founded_year':
      out = productFoundedYear(value, evidence, now, ctx);
      break;
    case 'country':
      out = productCountry(value, evidence, ctx);
      break;
    case 'stage':
      out = productStage(value, evidence, ctx);
      break;
    case 'contact_email':
      out = email(value, evidence, pageOf);
      break;
    case 'demo_video_url':
      out = linkTo(value, evidence, pageOf, 'media', max);
      break;
    case 'logo_url':
      out = linkTo(value, evidence, pageOf, 'logo', max);
      break;
    case 'pricing_model':
      out = pricingModel(value, evidence);
      break;
    default: {
      const text = cleanText(value);
      out = textSupported(text, evidence) ? { value: text, evidence } : null;
    }
  }
  if (out === null) return null;
  if (out.value.length > max) {
    if (!TRUNCATED_FIELDS.has(field)) return null;
    out = { value: truncateWords(out.value, max), evidence: out.evidence };
  }
  return out;
}

function checkListField(
  field: DraftListField,
  raw: unknown,
  evidence: Evidence[],
  canonical: Map<string, string>,
  tree: CategoryTree | null,
): Supported<string[]> | null {
  if (!Array.isArray(raw)) return null;
  const items: string[] = [];
  const seen = new Set<string>();
  for (const entry of raw) {
    const value = str(entry);
    if (value === null) continue;
    let item: string | null = cleanText(value).replace(/\n/g, ' ');
    if (field === 'categories') item = category(item, evidence, canonical, tree);
    else if (item.length > LIST_ITEM_MAX || !textSupported(item, evidence)) item = null;
    if (item === null || item.length > LIST_ITEM_MAX) continue;
    const key = normaliseText(item);
    if (seen.has(key)) continue;
    seen.add(key);
    items.push(item);
    if (items.length >= LIST_MAX_ITEMS) break;
  }
  return items.length > 0 ? { value: items, evidence } : null;
}

/** Long text cut to its bound; null when not supported by the quotes. */
function longText(raw: unknown, evidence: Evidence[], max: number, threshold?: number): string | null {
  const value = str(raw);
  if (value === null) return null;
  const text = cleanText(value);
  return textSupported(text, evidence, threshold) ? truncateWords(text, max) : null;
}

/** Short text that must fit its bound as it is; null when not supported or too long. */
function shortText(raw: unknown, evidence: Evidence[], max: number, threshold?: number): string | null {
  const value = str(raw);
  if (value === null) return null;
  const text = cleanText(value).replace(/\n/g, ' ');
  return text.length <= max && textSupported(text, evidence, threshold) ? text : null;
}

function checkSocials(raw: unknown, site: Site, pageOf: PageOf): Partial<Record<SocialPlatform, Proposed<string>>> {
  const out: Partial<Record<SocialPlatform, Proposed<string>>> = {};
  if (raw === null || typeof raw !== 'object') return out;
  for (const platform of SOCIAL_PLATFORMS) {
    const entry = (raw as Record<string, Proposed<unknown> | undefined>)[platform];
    const value = str(entry?.value);
    if (value === null) continue;
    const checked = social(platform, value, site.verify(entry?.evidence, { declared: true }), pageOf, SOCIAL_URL_MAX);
    if (checked !== null) out[platform] = checked;
  }
  return out;
}

/** The proposal with every value that its quotes do not support removed (see the file head). */
export function checkProposal(p: DraftProposal, pages: CrawledPage[], opts: CheckOptions = {}): DraftProposal {
  const site = new Site(pages);
  const pageOf: PageOf = (url) => site.page(url);
  const now = opts.now ?? new Date();
  const canonical = new Map((opts.categoryNames ?? []).map((name) => [normaliseText(name), name]));
  for (const c of opts.categories ?? []) {
    canonical.set(normaliseText(c.name), c.name);
    canonical.set(normaliseText(c.slug), c.name);
  }
  const tree = opts.categories === undefined || opts.categories.length === 0 ? null : new CategoryTree(opts.categories);
  const out = emptyProposal();
  // The name is checked first (DRAFT_TEXT_FIELDS order), so the rules below know the product.
  const ctx: RuleContext = { names: productNames(null, pages[0]?.url), pageOf, pages };

  const fields = (p?.fields ?? {}) as Record<string, Proposed<unknown> | undefined>;
  for (const field of DRAFT_TEXT_FIELDS) {
    const entry = fields[field];
    if (entry === undefined) continue;
    const evidence = site.verify(entry.evidence, { declared: DECLARED_FIELDS.has(field) });
    if (evidence.length === 0) continue;
    const checked = checkTextField(field, entry.value, evidence, ctx, now);
    if (field === 'name' && checked !== null) ctx.names = productNames(checked.value, pages[0]?.url);
    if (checked !== null) out.fields[field] = checked;
  }
  for (const field of DRAFT_LIST_FIELDS) {
    const entry = fields[field];
    if (entry === undefined) continue;
    const evidence = site.verify(entry.evidence);
    if (evidence.length === 0) continue;
    const checked = checkListField(field, entry.value, evidence, canonical, tree);
    if (checked !== null) out.fields[field] = checked;
  }

  for (const faq of Array.isArray(p?.faqs) ? p.faqs : []) {
    if (out.faqs.length >= FAQ_MAX) break;
    const evidence = site.verify(faq?.evidence);
    if (evidence.length === 0) continue;
    // A question may be the drafter's own wording of what the quotes answer, so half its words suffice.
    const question = shortText(faq.value?.question, evidence, FAQ_QUESTION_MAX, LABEL_SUPPORT);
    const answer = longText(faq.value?.answer, evidence, FAQ_ANSWER_MAX);
    if (question === null || answer === null) continue;
    if (out.faqs.some((f) => normaliseText(f.value.question) === normaliseText(question))) continue;
    out.faqs.push({ value: { question, answer }, evidence });
  }

  // A founder only JSON-LD declares counts only when no founder is shown on the pages.
  for (const allowDeclared of [false, true]) {
    if (allowDeclared && out.founders.length > 0) break;
    for (const founder of Array.isArray(p?.founders) ? p.founders : []) {
      if (out.founders.length >= FOUNDERS_MAX) break;
      const verified = site.verify(founder?.evidence, { declared: true });
      const name = str(founder?.value?.name);
      const named = name === null || verified.length === 0 ? null : productFounder(name, verified, ctx, allowDeclared);
      if (named === null || named.value.length > FOUNDER_NAME_MAX) continue;
      const evidence = named.evidence;
      if (out.founders.some((f) => normaliseText(f.value.name) === normaliseText(named.value))) continue;
      out.founders.push({
        value: {
          name: named.value,
          title: shortText(founder.value.title, evidence, FOUNDER_TITLE_MAX, LABEL_SUPPORT),
          bio: longText(founder.value.bio, evidence, FOUNDER_BIO_MAX),
        },
        evidence,
      });
    }
  }

  out.company_socials = checkSocials(p?.company_socials, site, pageOf);
  out.founder_socials = checkSocials(p?.founder_socials, site, pageOf);

  const story = (p?.story ?? {}) as Partial<Record<StorySection, Proposed<unknown>>>;
  for (const section of STORY_SECTIONS) {
    const entry = story[section];
    if (entry === undefined) continue;
    const evidence = site.verify(entry.evidence);
    if (evidence.length === 0) continue;
    const text = section === 'title' ? shortText(entry.value, evidence, STORY_TITLE_MAX, LABEL_SUPPORT) : longText(entry.value, evidence, STORY_SECTION_MAX);
    if (text !== null) out.story[section] = { value: text, evidence };
  }

  for (const milestone of Array.isArray(p?.milestones) ? p.milestones : []) {
    if (out.milestones.length >= MILESTONES_MAX) break;
    const evidence = site.verify(milestone?.evidence);
    if (evidence.length === 0) continue;
    const date = str(milestone.value?.date) === null ? null : milestoneDate(String(milestone.value.date), evidence);
    const title = shortText(milestone.value?.title, evidence, MILESTONE_TITLE_MAX);
    if (date === null || title === null) continue;
    const rawUrl = str(milestone.value.url);
    const url = rawUrl !== null && /^https:/i.test(rawUrl.trim()) ? linkTo(rawUrl, evidence, pageOf, 'link', MILESTONE_URL_MAX) : null;
    out.milestones.push({
      value: { date: date.value, title, description: longText(milestone.value.description, evidence, MILESTONE_DESCRIPTION_MAX), url: url?.value ?? null },
      evidence,
    });
  }
  return out;
}

/** Keeps only the named draft fields (regenerate) and no collections. */
export function onlyFields(p: DraftProposal, only: readonly DraftFieldName[] | undefined): DraftProposal {
  if (only === undefined) return p;
  const out = emptyProposal();
  for (const field of only) {
    const entry = p.fields[field];
    if (entry !== undefined) out.fields[field] = entry;
  }
  return out;
}

/** A comparison with every point value not supported by quotes from its own site removed:
 * the product's value by the product's pages, the competitor's by the competitor's. A point
 * with neither value left is dropped; the competitor's name is kept only when its pages show it. */
export function checkComparison(
  c: ComparisonProposal,
  productPages: CrawledPage[],
  competitorPages: CrawledPage[],
  opts: CheckOptions = {},
): ComparisonProposal {
  const product = new Site(productPages);
  const competitor = new Site(competitorPages);
  const now = opts.now ?? new Date();
  const name = str(c?.competitor?.name);
  const nameNorm = name === null ? '' : normaliseText(name);
  const out: ComparisonProposal = {
    competitor: {
      url: str(c?.competitor?.url)?.trim() ?? competitorPages[0]?.url ?? '',
      name: name !== null && name.length <= 200 && competitorPages.some((p) => containsPhrase(pageNorm(p), nameNorm)) ? cleanText(name) : null,
    },
    points: [],
  };
  for (const point of Array.isArray(c?.points) ? c.points : []) {
    if (out.points.length >= COMPARISON_POINTS_MAX) break;
    const topic = str(point?.value?.topic);
    if (topic === null) continue;
    // Each quote is looked for on the site its URL names; a quote of the other site never counts for this one.
    const evidence = Array.isArray(point.evidence) ? point.evidence : [];
    const productEvidence = product.verify(evidence.filter((e) => product.page(e?.url ?? '') !== undefined || competitor.page(e?.url ?? '') === undefined));
    const competitorEvidence = competitor.verify(
      evidence.filter((e) => competitor.page(e?.url ?? '') !== undefined || product.page(e?.url ?? '') === undefined),
    );
    const side = (raw: unknown, ev: Evidence[]) => {
      const value = str(raw);
      return value !== null && ev.length > 0 && comparisonValue(value, ev, now) ? truncateWords(cleanText(value), COMPARISON_VALUE_MAX) : null;
    };
    const productValue = side(point.value.product, productEvidence);
    const competitorValue = side(point.value.competitor, competitorEvidence);
    if (productValue === null && competitorValue === null) continue;
    out.points.push({
      value: { topic: truncateWords(cleanText(topic).replace(/\n/g, ' '), COMPARISON_TOPIC_MAX), product: productValue, competitor: competitorValue },
      evidence: [...(productValue === null ? [] : productEvidence), ...(competitorValue === null ? [] : competitorEvidence)],
    });
  }
  return out;
}
