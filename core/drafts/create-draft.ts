// submit_listing: a new draft of a product's website.
import { transaction } from '../../sql/db.ts';
import { insertDraft } from './store.ts';
import type { DraftView } from './view.ts';
import { draftViewById, type DraftOwner } from './own-draft.ts';
import { normaliseSubmittedUrl } from './submitted-url.ts';
import { assertNotListed } from '../listings/product-key.ts';

/** Writes the draft and enqueues its crawl in one transaction; answers the draft (status crawling). */
export async function createDraft(owner: DraftOwner & { allowLoopback: boolean }, url: string): Promise<DraftView> {
  const { url: normal, domain } = normaliseSubmittedUrl(url, 'url', { allowLoopback: owner.allowLoopback });
  const id = await transaction(owner.sql, async (t) => {
    await assertNotListed(t, owner.siteId, normal, { userId: owner.userId });
    return insertDraft(t, { siteId: owner.siteId, userId: owner.userId, url: normal, domain });
  });
  return draftViewById(owner.sql, id);
}
