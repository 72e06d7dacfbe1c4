// The drafting step's entry points: the configured drafter and the evidence check. How complete
// a draft is has one definition, core/drafts/completeness.ts (completenessOf).
import type { Config } from '../../core/config.ts';
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
