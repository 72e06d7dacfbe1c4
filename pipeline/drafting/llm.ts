// The LLM drafter: any OpenAI-compatible chat completions endpoint (the openai SDK), asked for
// strict structured output in which every value carries its quotes. Its answer is validated
// against the same schema, then passes the evidence check like the extractive drafter's, so an
// invented value or quote never reaches the draft. The endpoint is the operator's (config),
// not user input, so it is called directly rather than through the SSRF-safe fetcher.
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import type { z } from 'zod';
import type { CrawledPage } from '../crawl/crawl-site.ts';
import type { ComparisonProposal, DraftInput, DraftProposal, Drafter } from './types.ts';
import { checkComparison, checkProposal, onlyFields } from './evidence.ts';
import { ComparisonOutput, DraftOutput, toComparison, toProposal } from './llm-schema.ts';
import { compareMessages, DEFAULT_MAX_CHARS, draftMessages } from './llm-prompt.ts';

export interface LlmDrafterConfig {
  /** Needed by OpenAI itself; a local endpoint without keys may leave it null. */
  apiKey: string | null;
  /** OpenAI when null. */
  baseURL: string | null;
  model: string;
  timeoutMs: number;
  /** Characters of page text sent per request (default 60,000). */
  maxChars?: number;
  /** SDK retries of connection errors, 408/409/429 and 5xx (default 1). */
  maxRetries?: number;
  /** Pins "now" for the founded-year bound (tests). */
  now?: Date;
}

export type DrafterErrorKind = 'http' | 'timeout' | 'malformed' | 'refused';

/** The endpoint failed (http, timeout), answered something that is not the schema's JSON
 * (malformed) or declined (refused). The message never carries the API key. */
export class DrafterError extends Error {
  override readonly name = 'DrafterError';
  constructor(
    readonly kind: DrafterErrorKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

type Message = { role: 'system' | 'user'; content: string };

export class LlmDrafter implements Drafter {
  readonly kind = 'llm' as const;
  private readonly client: OpenAI;

  constructor(private readonly config: LlmDrafterConfig) {
    this.client = new OpenAI({
      apiKey: config.apiKey ?? 'none',
      baseURL: config.baseURL ?? undefined,
      timeout: config.timeoutMs,
      maxRetries: config.maxRetries ?? 1,
    });
  }

  async draft(input: DraftInput): Promise<DraftProposal> {
    const { messages } = draftMessages(input.pages, input.categoryNames, this.config.maxChars ?? DEFAULT_MAX_CHARS, input.only);
    const out = await this.complete(messages, DraftOutput, 'draft_profile');
    const checked = checkProposal(toProposal(out), input.pages, { categoryNames: input.categoryNames, now: this.config.now });
    return onlyFields(checked, input.only);
  }

  async compare(input: { product: CrawledPage[]; competitor: CrawledPage[]; productName: string | null }): Promise<ComparisonProposal> {
    const { messages } = compareMessages(input.product, input.competitor, input.productName, this.config.maxChars ?? DEFAULT_MAX_CHARS);
    const out = await this.complete(messages, ComparisonOutput, 'comparison');
    return checkComparison(toComparison(out, input.competitor[0]?.url ?? ''), input.product, input.competitor, { now: this.config.now });
  }

  private async complete<S extends z.ZodType>(messages: Message[], schema: S, name: string): Promise<z.infer<S>> {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await this.client.chat.completions.create({
        model: this.config.model,
        messages,
        response_format: zodResponseFormat(schema, name),
      });
    } catch (error) {
      if (error instanceof OpenAI.APIConnectionTimeoutError) throw new DrafterError('timeout', `drafting endpoint timed out after ${this.config.timeoutMs} ms`);
      if (error instanceof OpenAI.APIError) {
        throw new DrafterError('http', `drafting endpoint answered ${error.status ?? 'no response'}: ${error.message}`.slice(0, 500), error.status ?? null);
      }
      if (error instanceof SyntaxError) throw new DrafterError('malformed', `drafting endpoint answered something that is not JSON: ${error.message}`);
      throw new DrafterError('http', `drafting endpoint failed: ${(error as Error)?.message ?? String(error)}`.slice(0, 500));
    }
    const message = completion?.choices?.[0]?.message;
    if (message?.refusal) throw new DrafterError('refused', `the model declined: ${message.refusal}`.slice(0, 500));
    if (typeof message?.content !== 'string') throw new DrafterError('malformed', 'the answer holds no message content');
    let json: unknown;
    try {
      json = JSON.parse(message.content);
    } catch {
      throw new DrafterError('malformed', 'the answer is not valid JSON');
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new DrafterError('malformed', `the answer does not fit the schema: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
    }
    return parsed.data;
  }
}
