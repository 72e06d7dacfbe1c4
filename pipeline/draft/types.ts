// What a drafter proposes from a crawled site. Every value carries the quotes that support it;
// the evidence check (evidence.ts) drops any value whose quotes are not on the crawled pages.
import type { CrawledPage } from '../crawl/crawl-site.ts';
import type { DraftFieldName, Evidence, SocialPlatform, StorySection } from '../../sql/drafts/fields.ts';

export type { CrawledPage, Evidence };

export interface Proposed<T> { value: T; evidence: Evidence[] }

export interface DraftProposal {
  /** A field absent from this map was not found on the site. */
  fields: Partial<Record<DraftFieldName, Proposed<string | string[]>>>;
  faqs: Proposed<{ question: string; answer: string }>[];
  founders: Proposed<{ name: string; title: string | null; bio: string | null }>[];
  company_socials: Partial<Record<SocialPlatform, Proposed<string>>>;
  founder_socials: Partial<Record<SocialPlatform, Proposed<string>>>;
  story: Partial<Record<StorySection, Proposed<string>>>;
  milestones: Proposed<{ date: string; title: string; description: string | null; url: string | null }>[];
}

/** A short comparison of the product with a competitor, every point quoted from one of the two sites. */
export interface ComparisonProposal {
  competitor: { url: string; name: string | null };
  points: Proposed<{ topic: string; product: string | null; competitor: string | null }>[];
}

export interface DraftInput {
  /** The submitted site's crawled pages (visible text only is evidence). */
  pages: CrawledPage[];
  /** Category names from list_categories; drafted categories must be among them. */
  categoryNames: string[];
  /** Redraft only these fields (regenerate); all when absent. */
  only?: DraftFieldName[];
}

export interface Drafter {
  readonly kind: 'extractive' | 'llm';
  draft(input: DraftInput): Promise<DraftProposal>;
  compare(input: { product: CrawledPage[]; competitor: CrawledPage[]; productName: string | null }): Promise<ComparisonProposal>;
}
