// The owner's listings: list, read (the owner view) and edit. Logic in core/listings/.
import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation, type OperationContext, type Principal } from '../registry/operation.ts';
import { ListOf, Paging } from '../registry/schemas.ts';
import { ListingIdPath, MyListing, MyListingSummary, UpdatedListing, UpdateListingBody } from './my-listings-schemas.ts';
import { ownerListing, ownerListings, type OwnerListing } from '../../core/listings/owner-view.ts';
import { updateMyListing, type ListingEdit } from '../../core/listings/update-listing.ts';
import type { ListingOwner } from '../../core/listings/own-listing.ts';
import { TRAVELLING_FIELDS } from '../../core/listings/editable.ts';
import { pageInfo } from '../../sql/queries/summaries.ts';
import { badgeImageUrl, embedHtml, profileUrl } from '../badges/catalogue.ts';
import { badgeDimensions } from '../badges/svg.ts';
import { myListingsExamples } from './my-listings-examples.ts';

export const notes = (...lines: string[]) => lines.join('\n\n');
/** Every owner operation needs an account (its scope), so the principal is set. */
export const listingOwner = (ctx: OperationContext): ListingOwner => {
  const p = ctx.principal as Principal;
  return { sql: ctx.sql, userId: p.userId, siteId: ctx.site.id, credential: p.credentialId };
};
export const NOT_YOURS = "404 when the listing is unknown, on another site, or not yours (another account's listing is the same 404 as an unknown one).";

/** The "Listed on" badge to place while the listing waits for it. */
function badgeFor(l: OwnerListing, ctx: OperationContext) {
  if (l.status !== 'awaiting_badge' && l.status !== 'scheduled') return null;
  const u = ctx.config.siteUrl;
  const link = profileUrl(u, l.slug);
  const src = badgeImageUrl(u, l.slug, 'listed', { shape: 'standard', mode: 'light', size: 'm' });
  const { width, height } = badgeDimensions('standard', 'm');
  return {
    kind: 'listed' as const,
    html: embedHtml({ link, src, dark: null, alt: `${l.name} is listed on ${ctx.site.name}`, width, height }),
    image_url: src,
    link_url: link,
  };
}

export const ownerView = async (ctx: OperationContext, id: number) => {
  const l = await ownerListing(listingOwner(ctx), id, ctx.config.siteUrl);
  return { ...l, badge: badgeFor(l, ctx) };
};

export const myListingsOperations: Operation[] = [
  defineOperation({
    name: 'list_my_listings',
    examples: myListingsExamples.list_my_listings,
    method: 'GET',
    path: '/me/listings',
    tag: 'My listings',
    scope: 'account:read',
    summary: 'List your listings',
    description:
      'Lists your listings in any status, newest first, each with status, plan, launch week and the next step to take. Call get_my_listing with an id for the full owner view.',
    query: Type.Object({ ...Paging }, { additionalProperties: false }),
    output: ListOf(MyListingSummary),
    notes: 'Yours: listings you saved with submit_draft, and listings of a company you verified a claim on. Newest first (created_at, then id).',
    handler: async ({ page, per_page }, ctx) => {
      const { items, total } = await ownerListings(listingOwner(ctx), page, per_page, ctx.config.siteUrl);
      return { items, ...pageInfo(page, per_page, total) };
    },
  }),

  defineOperation({
    name: 'get_my_listing',
    examples: myListingsExamples.get_my_listing,
    method: 'GET',
    path: '/me/listings/{listing_id}',
    tag: 'My listings',
    scope: 'account:read',
    summary: 'Get your listing (owner view)',
    description:
      'Returns the owner view of one of your listings by listing_id: status and why, every editable value, and the next step (for example the badge to place on your homepage). Take listing_id from list_my_listings or submit_draft.',
    params: ListingIdPath,
    notFoundParams: ['listing_id'],
    output: MyListing,
    notes: notes(
      NOT_YOURS,
      'status_reason values: badge_not_checked (queued, first check pending), badge_not_found (the homepage has no visible badge linking to the profile), badge_hidden (the badge is there but hidden), badge_removed (it was found, then gone: back to awaiting_badge, the week is kept), site_unreachable / site_refused / site_error (the homepage could not be read; status_detail says why), badge_missing_at_launch (not found when the week began: back to draft, the week is released), hidden_by_site_team (status hidden: the site team took the listing off every public surface; status_detail gives their reason). null when nothing is wrong.',
      'next_step.action: choose_launch (draft), place_badge (awaiting_badge; badge holds the embed code), keep_badge (scheduled), none (live).',
    ),
    handler: async ({ listing_id }, ctx) => ownerView(ctx, listing_id),
  }),

  defineOperation({
    name: 'update_my_listing',
    examples: myListingsExamples.update_my_listing,
    method: 'PATCH',
    path: '/me/listings/{listing_id}',
    tag: 'My listings',
    scope: 'listings:write',
    idempotent: true,
    summary: 'Edit your listing',
    description:
      "Changes the company fields you send on one of your listings and replaces socials or FAQs; edits go live at once and are kept in the version history. apply_to also sends the headline, summary and SEO fields to the company's listings on other sites.",
    params: ListingIdPath,
    notFoundParams: ['listing_id'],
    body: UpdateListingBody,
    output: UpdatedListing,
    notes: notes(
      NOT_YOURS,
      'fields: only the keys sent change; no other keys (400 naming the key). An empty string clears a text field, founded_year null clears the year. country is two letters (stored upper case); demo_video_url and every social link must be an absolute http(s) URL; contact_email an e-mail address.',
      'socials replaces all links (platforms left out or empty are removed); faqs replaces all FAQs (max 10).',
      `apply_to: ["all"] (every other site of the network) or site keys; "all" together with keys is 400, an unknown key is 400 naming apply_to.<i>. Only the ${TRAVELLING_FIELDS.join(', ')} fields sent in this call travel, to the same company's listings on those sites; a site where the company has no listing is skipped. Each target must be a listing you own there (as owner or co-owner): a target owned by someone else is 403 apply_to_not_owned naming its site, and nothing is written on any site. applied_to lists where they went. Default: this listing only.`,
      'Edits publish at once: public reads (get_listing, search) show them within the cache lifetime (CACHE_TTL_SECONDS, the cache is invalidated at once). Each listing the call changed gets one version (the changed parts before and after, the account, the credential as key:<id> or grant:<id>, the time); nothing is recorded when nothing changed (version_id null). The site team reads the same before/after copies in its moderation feed (npm run ops -- moderation).',
      'proposed_changes and vanished (from an operator re-crawl of your website): sending a field settles both for that field: send the proposed value to accept it, any other value to keep yours.',
      'The answer is the owner view after the edit.',
    ),
    handler: async ({ listing_id, ...edit }, ctx) => {
      const out = await updateMyListing(listingOwner(ctx), listing_id, edit as ListingEdit);
      return { ...(await ownerView(ctx, listing_id)), ...out };
    },
  }),
];
