// submit_draft: makes (or updates) the listing of a draft, not yet published.
import { contentOf } from './store.ts';
import type { DraftContent } from './model.ts';
import { assertNotListed } from '../listings/product-key.ts';
import { draftConflict } from './draft-errors.ts';
import { syncListing } from './listing-sync.ts';
import { withOwnDraftLocked, type DraftOwner } from './own-draft.ts';

/** Syncs every part of the draft to its listing under the draft's row lock; 409 until the AI draft is done. */
export function submitDraft(owner: DraftOwner, id: string) {
  return withOwnDraftLocked(owner, id, async (t, row) => {
    if (row.status === 'crawling' || row.status === 'drafting') {
      throw draftConflict('draft_in_progress', `The draft is still ${row.status}; submit it once it is ready (poll get_draft).`);
    }
    const content = contentOf(row);
    // A listing made from nothing would be a page with a stranger's URL and no proof the site exists.
    if (row.status === 'failed') {
      throw draftConflict('draft_not_ready', 'This draft cannot be submitted: its website could not be read. Submit the URL again once the site answers.');
    }
    if (!hasContent(content)) {
      throw draftConflict(
        'draft_not_ready',
        'This draft cannot be submitted yet: it has no name, tagline or description. Fill them in with update_draft first.',
      );
    }
    // The draft's own listing may be public already (a second submit after edits); another may not.
    await assertNotListed(t, row.site_id, row.url, { except: row.listing_id, userId: owner.userId });
    const { listingId, created, adjusted } = await syncListing(t, row, content, 'all');
    const [d] = await t<{ submitted_at: Date }[]>`
      update drafts set listing_id = ${listingId}, submitted_at = coalesce(submitted_at, now()), updated_at = now()
      where id = ${row.id} returning submitted_at`;
    const [l] = await t<
      {
        slug: string;
        name: string;
        url: string;
        status: string;
        plan: string;
        not_found_on_website: string[];
        categories: string[];
        category_slugs: string[];
      }[]
    >`
      select l.slug, l.name, l.url, l.status, l.plan, l.not_found_on_website,
             coalesce(array(select c.name from listing_categories lc join categories c on c.id = lc.category_id
                            where lc.listing_id = l.id order by lc.is_primary desc, c.name), '{}') as categories,
             coalesce(array(select c.slug from listing_categories lc join categories c on c.id = lc.category_id
                            where lc.listing_id = l.id order by lc.is_primary desc, c.name), '{}') as category_slugs
      from listings l where l.id = ${listingId}`;
    return { listing_id: listingId, draft_id: row.id, created, ...l, adjusted, submitted_at: d.submitted_at.toISOString() };
  });
}

const filled = (v: unknown) => (typeof v === 'string' ? v.trim() !== '' : Array.isArray(v) ? v.length > 0 : v != null);

/** A draft with something to list: a name, a tagline or a description. */
const hasContent = (c: DraftContent) => (['name', 'tagline', 'short_description', 'description'] as const).some((f) => filled(c.fields[f]?.value));
