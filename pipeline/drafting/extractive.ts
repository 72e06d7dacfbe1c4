// The deterministic extractive drafter, the default: it proposes only what the site's
// structure states (JSON-LD, OpenGraph and meta tags, title and headings, pricing, FAQ blocks,
// footer links, mailto links, "founded in", "based in", team cards) and quotes the visible line
// each value came from. Values read from markup a visitor does not see (meta tags, JSON-LD)
// are kept only when the same words are visible; URL values (logo, socials, video) are kept
// when the page carries them visibly (see field-rules.ts). Its output still passes the evidence
// check, like the LLM drafter's.
import type { CrawledPage } from '../crawl/crawl-site.ts';
import type { DraftFieldName } from '../../core/drafts/fields.ts';
import type { CategoryText, ComparisonProposal, DraftInput, DraftProposal, Drafter, Proposed } from './types.ts';
import { extractTreeCategories } from './extract/categories.ts';
import { keyPhrases, phraseList } from './extract/key-phrases.ts';
import { checkComparison, checkProposal, emptyProposal, onlyFields, type CheckOptions } from './evidence.ts';
import { normaliseText } from './normalise.ts';
import { Sources } from './extract/sources.ts';
import { extractDescription, extractKeywords, extractLogo, extractName, extractShortDescription, extractTagline } from './extract/identity.ts';
import { extractFoundedYear, extractLocation, extractStage } from './extract/product-facts.ts';
import { productNames, type RuleContext } from './rules/index.ts';
import { Site } from './quotes.ts';
import { extractCategories, extractFeatures, extractUsps } from './extract/lists.ts';
import { extractPricing } from './extract/pricing.ts';
import { extractFaqs } from './extract/faqs.ts';
import { extractPeople } from './extract/people.ts';
import { extractCompanySocials, extractDemoVideo, extractEmail } from './extract/facts.ts';
import { extractMilestones, extractStory } from './extract/story.ts';

/** What the pages state, unchecked (the evidence check runs in the drafter). */
export function extractProposal(
  pages: CrawledPage[],
  categoryNames: readonly string[],
  now = new Date(),
  categories: readonly CategoryText[] = [],
): DraftProposal {
  const src = new Sources(pages);
  const p = emptyProposal();
  if (src.home === undefined) return p;
  const set = (field: DraftFieldName, value: Proposed<string> | Proposed<string[]> | null) => {
    if (value !== null) p.fields[field] = value;
  };

  const name = extractName(src);
  set('name', name);
  const site = new Site(pages);
  const ctx: RuleContext = { names: productNames(name?.value ?? null, pages[0]?.url), pageOf: (url) => site.page(url), pages };
  const tagline = extractTagline(src, name?.value ?? null);
  set('tagline', tagline);
  const short = extractShortDescription(src, tagline?.value ?? null);
  set('short_description', short);
  set(
    'description',
    extractDescription(
      src,
      [tagline?.value, short?.value].filter((s): s is string => s !== undefined),
    ),
  );
  set('stage', extractStage(src, ctx));
  set('logo_url', extractLogo(src, name));

  const pricing = extractPricing(src);
  set('pricing_model', pricing.model);
  set('pricing_summary', pricing.summary);

  const location = extractLocation(src, ctx);
  set('city', location.city);
  set('country', location.country);
  set('founded_year', extractFoundedYear(src, ctx, now));
  set('contact_email', extractEmail(src));
  set('demo_video_url', extractDemoVideo(src));

  set('categories', categories.length > 0 ? extractTreeCategories(src, categories, ctx) : extractCategories(src, categoryNames));
  const used = new Set<string>();
  set('features', extractFeatures(src, used));
  set('usps', extractUsps(src, used));
  const features = (p.fields.features?.value ?? []) as string[];
  const { tags, keywords } = extractKeywords(
    src,
    features,
    [name?.value, tagline?.value].filter((s): s is string => typeof s === 'string'),
  );
  // Without JSON-LD keywords, tags are the key phrases the site's own sentences use most.
  set(
    'tags',
    tags ??
      phraseList(
        keyPhrases(
          src,
          ctx,
          [name?.value].filter((s): s is string => typeof s === 'string'),
        ),
      ),
  );
  set('keywords', keywords);

  p.faqs = extractFaqs(src);
  const people = extractPeople(src);
  p.founders = people.founders;
  p.founder_socials = people.founderSocials;
  p.company_socials = extractCompanySocials(src, people.cards, ctx.names);
  // A profile whose handle is a founder's name is that person's, not the company's.
  for (const [platform, social] of Object.entries(p.company_socials)) {
    const owner = p.founders.find((f) => social !== undefined && handleNames(social.value, f.value.name));
    if (owner === undefined) continue;
    delete p.company_socials[platform as keyof typeof p.company_socials];
    if (owner === p.founders[0] && p.founder_socials[platform as keyof typeof p.founder_socials] === undefined) {
      p.founder_socials[platform as keyof typeof p.founder_socials] = social;
    }
  }
  p.story = extractStory(src);
  p.milestones = extractMilestones(src);
  return p;
}

/** Whether a profile URL's handle is the person's name ("x.com/noralindqvist" for Nora Lindqvist). */
export function handleNames(url: string, name: string): boolean {
  let handle: string;
  try {
    // One segment: a person's account ("/in/jane" on LinkedIn); "/jane/project" is a project's.
    const segments = new URL(url).pathname.split('/').filter((s) => s !== '' && s !== 'in');
    if (segments.length !== 1) return false;
    handle = segments[0]!.replace(/^@/, '').toLowerCase();
  } catch {
    return false;
  }
  const letters = (s: string) =>
    s
      .normalize('NFKD')
      .replace(/[^\p{L}]/gu, '')
      .toLowerCase();
  const parts = name
    .split(/\s+/)
    .map(letters)
    .filter((p) => p.length >= 2);
  const h = letters(handle);
  return parts.length >= 2 && h.includes(parts[0]!) && h.includes(parts[parts.length - 1]!);
}

// Points of an extractive comparison: fields both drafts may hold, shown side by side.
const COMPARED: [string, DraftFieldName, (v: string | string[]) => string][] = [
  ['Pricing model', 'pricing_model', String],
  ['Pricing', 'pricing_summary', String],
  ['Stage', 'stage', String],
  ['Founded', 'founded_year', String],
  ['Based in', 'city', String],
  ['Country', 'country', String],
  ['Features', 'features', (v) => (Array.isArray(v) ? v.slice(0, 4).join('; ') : v)],
];

export function compareProposals(product: DraftProposal, competitor: DraftProposal, competitorUrl: string): ComparisonProposal {
  const points: ComparisonProposal['points'] = [];
  for (const [topic, field, show] of COMPARED) {
    const a = product.fields[field];
    const b = competitor.fields[field];
    if (a === undefined && b === undefined) continue;
    const av = a === undefined ? null : show(a.value);
    const bv = b === undefined ? null : show(b.value);
    if (av !== null && bv !== null && normaliseText(av) === normaliseText(bv) && field === 'features') continue;
    points.push({ value: { topic, product: av, competitor: bv }, evidence: [...(a?.evidence ?? []), ...(b?.evidence ?? [])] });
  }
  const name = competitor.fields.name?.value;
  return { competitor: { url: competitorUrl, name: typeof name === 'string' ? name : null }, points };
}

export class ExtractiveDrafter implements Drafter {
  readonly kind = 'extractive' as const;

  constructor(private readonly opts: Pick<CheckOptions, 'now'> = {}) {}

  async draft(input: DraftInput): Promise<DraftProposal> {
    const now = this.opts.now ?? new Date();
    const raw = extractProposal(input.pages, input.categoryNames, now, input.categories);
    return onlyFields(checkProposal(raw, input.pages, { categoryNames: input.categoryNames, categories: input.categories, now }), input.only);
  }

  async compare(input: { product: CrawledPage[]; competitor: CrawledPage[]; productName: string | null }): Promise<ComparisonProposal> {
    const now = this.opts.now ?? new Date();
    const product = checkProposal(extractProposal(input.product, [], now), input.product, { now });
    const competitor = checkProposal(extractProposal(input.competitor, [], now), input.competitor, { now });
    const raw = compareProposals(product, competitor, input.competitor[0]?.url ?? '');
    return checkComparison(raw, input.product, input.competitor, { now });
  }
}
