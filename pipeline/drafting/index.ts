import { COMPLETENESS_PARTS } from '../../core/drafts/completeness.ts';
// The drafting step's entry points: the configured drafter, the evidence check, and how
// complete a draft is.
import type { Config } from '../../core/config.ts';
import type { DraftFieldName } from '../../core/drafts/fields.ts';
import type { Drafter } from './types.ts';
import { ExtractiveDrafter } from './extractive.ts';
import { LlmDrafter } from './llm.ts';

export type { ComparisonProposal, DraftInput, DraftProposal, Drafter, Proposed } from './types.ts';
export { checkComparison, checkProposal, emptyProposal, onlyFields, type CheckOptions } from './evidence.ts';
export { DrafterError, LlmDrafter, type DrafterErrorKind, type LlmDrafterConfig } from './llm.ts';
export { ExtractiveDrafter, extractProposal } from './extractive.ts';

export interface DrafterOptions {
  /** Pins "now" (the founded-year bound) in tests. */
  now?: Date;
  /** LLM only: characters of page text per request. */
  maxChars?: number;
  /** LLM only: SDK retries. */
  maxRetries?: number;
}

/** The drafter configuration chose (core/config.ts `drafter`): extractive by default, the LLM
 * drafter for DRAFTER=llm (which needs OPENAI_API_KEY, or OPENAI_BASE_URL for a local endpoint). */
export function createDrafter(config: Config['drafter'], opts: DrafterOptions = {}): Drafter {
  if (config.kind === 'extractive') return new ExtractiveDrafter({ now: opts.now });
  if (config.openaiApiKey === null && config.openaiBaseUrl === null) {
    throw new Error('DRAFTER=llm needs OPENAI_API_KEY (or OPENAI_BASE_URL for an endpoint without keys)');
  }
  return new LlmDrafter({
    apiKey: config.openaiApiKey,
    baseURL: config.openaiBaseUrl,
    model: config.model,
    timeoutMs: config.timeoutMs,
    maxChars: opts.maxChars,
    maxRetries: opts.maxRetries,
    now: opts.now,
  });
}

/** What completeness counts: every draft field, plus having at least one FAQ, one founder and
 * one company social link. The story, milestones and founder socials are optional (paid)
 * sections and do not count. */
// One definition, shared with the edge's completenessOf (core/drafts/completeness.ts); this module
// applies it to proposals as well as stored drafts.
export const COMPLETENESS_ITEMS = COMPLETENESS_PARTS as readonly CompletenessItem[];
export type CompletenessItem = DraftFieldName | 'faqs' | 'founders' | 'company_socials';

/** Any draft-like shape: a proposal, or a stored draft whose fields hold plain values or
 * { value } entries (null, '', [] and {} count as missing). */
export interface DraftShape {
  fields: Partial<Record<DraftFieldName, unknown>>;
  faqs?: readonly unknown[] | null;
  founders?: readonly unknown[] | null;
  company_socials?: Readonly<Record<string, unknown>> | null;
}

function present(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'string') return v.trim() !== '';
  if (typeof v === 'number' || typeof v === 'boolean') return true;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') {
    if ('value' in v) return present((v as { value: unknown }).value);
    return Object.values(v).some(present);
  }
  return false;
}

/** The items of COMPLETENESS_ITEMS the draft lacks, in that order. */
export function missingFields(p: DraftShape): CompletenessItem[] {
  return COMPLETENESS_ITEMS.filter((item) => {
    switch (item) {
      case 'faqs': return !present(p.faqs ?? null);
      case 'founders': return !present(p.founders ?? null);
      case 'company_socials': return !present(p.company_socials ?? null);
      default: return !present(p.fields?.[item]);
    }
  });
}

/** Share of COMPLETENESS_ITEMS present, as a whole percentage 0..100. */
export function completeness(p: DraftShape): number {
  return Math.round((100 * (COMPLETENESS_ITEMS.length - missingFields(p).length)) / COMPLETENESS_ITEMS.length);
}
