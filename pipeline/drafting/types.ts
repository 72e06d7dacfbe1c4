// What a drafter proposes from a crawled site. Every value carries the quotes that support it;
// the evidence check (evidence.ts) drops any value whose quotes are not on the crawled pages.
import type { CrawledPage } from '../crawl/crawl-site.ts';
import type { DraftFieldName, Evidence } from '../../core/drafts/fields.ts';
import type { AiProposal, AiValue } from '../../core/drafts/model.ts';

export type { CrawledPage, Evidence };

/** A value with the quotes that support it. */
export type Proposed<T> = AiValue<T>;

/**
 * What a drafter proposes. A field absent from `fields` was not found on the site. The shape is
 * the one core/drafts/model.ts stores AI values from (sql/ never imports the pipeline).
 */
export type DraftProposal = AiProposal;

/** A short comparison of the product with a competitor, every point quoted from one of the two sites. */
export interface ComparisonProposal {
  competitor: { url: string; name: string | null };
  points: Proposed<{ topic: string; product: string | null; competitor: string | null }>[];
}

/** A category of the directory's tree as its editors describe it: what the classifier matches
 * a site's own words against. */
export interface CategoryText {
  slug: string;
  name: string;
  description: string;
  keywords?: string[];
}

export interface DraftInput {
  /** The submitted site's crawled pages (visible text only is evidence). */
  pages: CrawledPage[];
  /** Category names from list_categories; drafted categories must be among them. */
  categoryNames: string[];
  /** The category tree's texts (name, description, keywords); without them categories are
   * chosen only where the site names one. */
  categories?: CategoryText[];
  /** Redraft only these fields (regenerate); all when absent. */
  only?: DraftFieldName[];
}

export interface Drafter {
  readonly kind: 'extractive' | 'llm';
  draft(input: DraftInput): Promise<DraftProposal>;
  compare(input: { product: CrawledPage[]; competitor: CrawledPage[]; productName: string | null }): Promise<ComparisonProposal>;
}
