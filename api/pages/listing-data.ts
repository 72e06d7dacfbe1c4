import { alternativeIdsOf } from '../../sql/queries/listing-alternatives.ts';
import { listingPageParts } from '../../sql/queries/listing-page.ts';
import { listingSummaries } from '../../sql/queries/summaries.ts';
import { batchedRead } from '../http/batched-read.ts';
import type { Summary } from './components.tsx';
import type { PageDeps } from './data.ts';

// The reads of a listing page beside get_listing. A page not in the response cache is most often
// one of a long tail (a search engine, a visitor from search), where every page a turn of the event
// loop renders is a miss: each read below is one statement for all of them (batched-read.ts), as
// get_listing's misses share one.

/** Badges and reviews (sql/queries/listing-page.ts). */
const partsOf = batchedRead(listingPageParts);

/** The first six alternatives, as get_alternatives answers its first page of six. */
const alternativeIds = batchedRead((sql, siteId: number, slugs: readonly string[]) => alternativeIdsOf(sql, siteId, slugs, 1, 6));
const summaryOf = batchedRead(async (sql, siteUrl: string, ids: readonly number[]) => {
  const rows = await listingSummaries(sql, [...new Set(ids)], siteUrl);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id));
});

export const listingPagePartsOf = (deps: PageDeps, slug: string) => partsOf(deps, deps.site.id, slug);

/** The listing's first six alternatives (approved ones first), each marked approved or not; null when it is not live. */
export async function alternativesOf(deps: PageDeps, slug: string): Promise<(Summary & { approved: boolean })[] | null> {
  const found = await alternativeIds(deps, deps.site.id, slug);
  if (!found) return null;
  const summaries = await Promise.all(found.items.map((i) => summaryOf(deps, deps.config.siteUrl, i.id)));
  return found.items.flatMap((item, k) => (summaries[k] ? [{ ...summaries[k], approved: item.approved }] : []));
}
