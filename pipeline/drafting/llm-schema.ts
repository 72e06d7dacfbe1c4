// The structured output the LLM drafter asks for (strict JSON schema, generated from zod, and
// the same zod schema validates the answer). Maps become arrays of entries because strict mode
// wants every property named; "not stated" is null or an empty list.
import { z } from 'zod';
import { DRAFT_LIST_FIELDS, DRAFT_TEXT_FIELDS, SOCIAL_PLATFORMS, STORY_SECTIONS } from '../../core/drafts/fields.ts';
import type { ComparisonProposal, DraftProposal, Proposed } from './types.ts';

const evidence = z
  .array(
    z.object({
      quote: z.string().describe('Words copied exactly from the page text, without changes or ellipses'),
      url: z.string().describe('URL of the page the quote is on, as given in its fence'),
    }),
  )
  .describe('Quotes from the pages that state the value');

const HINTS: Partial<Record<string, string>> = {
  name: 'The product name',
  tagline: 'One-line tagline, max 200 characters',
  short_description: 'Max 300 characters',
  stage: 'e.g. Beta, Early access, only when stated',
  pricing_model: 'e.g. Free, Freemium, Subscription, One-time payment, Paid, Open source; max 40 characters',
  pricing_summary: 'Plans and prices as stated, max 300 characters',
  country: 'ISO 3166-1 alpha-2 code, only when the site names the country',
  city: 'Only when the site names it',
  founded_year: 'Four-digit year the company was founded, only when the site states it',
  contact_email: 'Only an address shown on the site',
  demo_video_url: 'A video link or embed on the site',
  logo_url: 'The logo image URL the page declares',
  categories: 'Only names from the allowed category list',
};

const textField = (name: string) =>
  z.object({
    value: z
      .string()
      .nullable()
      .describe(HINTS[name] ?? 'null when the site does not state it'),
    evidence,
  });
const listField = (name: string) =>
  z.object({ value: z.array(z.string()).describe(HINTS[name] ?? 'Items of at most 200 characters; empty when none'), evidence });

const fields = z.object(
  Object.fromEntries([...DRAFT_TEXT_FIELDS.map((f) => [f, textField(f)] as const), ...DRAFT_LIST_FIELDS.map((f) => [f, listField(f)] as const)]) as Record<
    string,
    ReturnType<typeof textField> | ReturnType<typeof listField>
  >,
);

const social = z.object({ platform: z.enum(SOCIAL_PLATFORMS), url: z.string(), evidence });

export const DraftOutput = z.object({
  fields,
  faqs: z.array(z.object({ question: z.string(), answer: z.string(), evidence })).describe('At most 10'),
  founders: z
    .array(z.object({ name: z.string(), title: z.string().nullable(), bio: z.string().nullable(), evidence }))
    .describe('At most 6, primary founder first'),
  company_socials: z.array(social),
  founder_socials: z.array(social).describe("The primary founder's own profiles"),
  story: z.array(z.object({ section: z.enum(STORY_SECTIONS), text: z.string(), evidence })),
  milestones: z.array(
    z.object({
      date: z.string().describe('YYYY-MM-DD; day 01 when only the month is stated, 01-01 when only the year'),
      title: z.string(),
      description: z.string().nullable(),
      url: z.string().nullable(),
      evidence,
    }),
  ),
});
export type DraftOutput = z.infer<typeof DraftOutput>;

export const ComparisonOutput = z.object({
  competitor_name: z.string().nullable(),
  points: z
    .array(
      z.object({
        topic: z.string().describe('Short topic such as Pricing, Free plan, Platforms'),
        product: z.string().nullable().describe("The product's side, as its site states it"),
        competitor: z.string().nullable().describe("The competitor's side, as its site states it"),
        evidence: evidence.describe('Quotes from both sites, each with the URL of its page'),
      }),
    )
    .describe('At most 8 points'),
});
export type ComparisonOutput = z.infer<typeof ComparisonOutput>;

const present = (v: unknown) => (Array.isArray(v) ? v.length > 0 : typeof v === 'string' && v.trim() !== '');

/** The model's answer as a proposal (still unchecked). */
export function toProposal(out: DraftOutput): DraftProposal {
  const p: DraftProposal = { fields: {}, faqs: [], founders: [], company_socials: {}, founder_socials: {}, story: {}, milestones: [] };
  for (const [field, entry] of Object.entries(out.fields)) {
    if (present(entry.value)) (p.fields as Record<string, Proposed<string | string[]>>)[field] = { value: entry.value!, evidence: entry.evidence };
  }
  p.faqs = out.faqs.map(({ evidence: ev, ...value }) => ({ value, evidence: ev }));
  p.founders = out.founders.map(({ evidence: ev, ...value }) => ({ value, evidence: ev }));
  for (const [key, list] of [
    ['company_socials', out.company_socials],
    ['founder_socials', out.founder_socials],
  ] as const) {
    for (const { platform, url, evidence: ev } of list) p[key][platform] ??= { value: url, evidence: ev };
  }
  for (const { section, text, evidence: ev } of out.story) p.story[section] ??= { value: text, evidence: ev };
  p.milestones = out.milestones.map(({ evidence: ev, ...value }) => ({ value, evidence: ev }));
  return p;
}

export function toComparison(out: ComparisonOutput, competitorUrl: string): ComparisonProposal {
  return {
    competitor: { url: competitorUrl, name: out.competitor_name },
    points: out.points.map(({ evidence: ev, ...value }) => ({ value, evidence: ev })),
  };
}
