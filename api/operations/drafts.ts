// The draft operations (submit a product by URL, edit, invite, submit): schemas in drafts-schemas.ts, logic in core/drafts/.
import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation, type ScopedOperationContext } from '../registry/operation.ts';
import { ListOf, Paging } from '../registry/schemas.ts';
import { Draft, DraftSummary, IdPath, Invite, InviteBody, SubmitListingBody, SubmittedListing, UpdateBody } from './drafts-schemas.ts';
import { createDraft } from '../../core/drafts/create-draft.ts';
import { inviteCofounder } from '../../core/drafts/invite-cofounder.ts';
import { ownDraftView, type DraftOwner } from '../../core/drafts/own-draft.ts';
import { submitDraft } from '../../core/drafts/submit-draft.ts';
import { updateDraft } from '../../core/drafts/update-draft.ts';
import type { DraftUpdate } from '../../core/drafts/update-input.ts';
import { INVITES_MAX, INVITES_PER_DAY, INVITE_MAILS_PER_ADDRESS_PER_DAY, INVITE_TTL_DAYS } from '../../core/drafts/invites-store.ts';
import { listDrafts } from '../../core/drafts/store.ts';
import { pageInfo } from '../../sql/queries/summaries.ts';
import { draftsExamples } from './drafts-examples.ts';

const notes = (...lines: string[]) => lines.join('\n\n');
/** Every draft operation needs an account (its scope), so its context has the principal. */
const owner = (ctx: ScopedOperationContext): DraftOwner => ({ sql: ctx.sql, userId: ctx.principal.userId, siteId: ctx.site.id });

const NOT_YOURS = "404 when the id is not a UUID, unknown, or another account's draft (drafts are private to their owner).";

export const draftsOperations: Operation[] = [
  defineOperation({
    name: 'submit_listing',
    examples: draftsExamples.submit_listing,
    method: 'POST',
    path: '/drafts',
    tag: 'Drafts',
    scope: 'listings:write',
    status: 201,
    location: (draft) => `/drafts/${draft.id}`,
    idempotent: true,
    openWorld: true,
    summary: 'Submit a product by its website URL',
    description:
      "Starts a listing from a product's public website URL: the service reads the site and drafts a profile with every value quoted from it. Returns the draft (status crawling); poll get_draft every few seconds until its status is ready or failed. Nothing is published or charged.",
    body: SubmitListingBody,
    output: Draft,
    notes: notes(
      'The service reads the site respecting robots.txt, and an AI drafts the profile; facts the site does not state stay blank (state not_found). Poll get_draft every few seconds.',
      'The URL is normalised (scheme and host lower case, fragment removed; a bare domain gets https://). 400 when it is not http(s), carries a user name or password, names an IP address that is not public (private, loopback, link-local, ...) or a private name (localhost, *.local, *.internal, ...). Names are resolved and checked again, address by address and redirect by redirect, when the site is read; a site that turns out not to be public ends the draft as failed with reason refused_address.',
      'The draft is written and its crawl enqueued in one transaction; the answer (201) is the draft with status crawling. Status then goes crawling -> drafting -> ready, usually within seconds. failed ends a draft whose site cannot be read or drafted, with failure.reason (robots_disallowed, robots_unavailable, unreachable, refused_address, not_html, too_large, http_error, off_site, drafting_failed, timed_out) and a detail; submit the URL again once the cause is fixed.',
      'The crawl reads robots.txt first and obeys it for our user agent (including Crawl-delay), stays on the submitted site, reads at most 25 pages (home, about, pricing, FAQ, contact, team and blog first) within 30 seconds.',
      '409 listing_exists when the product already has a live, scheduled or queued listing on this site. A product is its site: the host without www., plus the first path segment on shared hosts such as github.com, gitlab.com or *.github.io. The problem names the listing (existing_listing.slug) and how to claim it (claim: claim_listing with that slug). submit_draft and publishing check the same again.',
    ),
    handler: async ({ url }, ctx) => createDraft({ ...owner(ctx), allowLoopback: ctx.config.allowLoopbackFetch }, url),
  }),

  defineOperation({
    name: 'list_my_drafts',
    examples: draftsExamples.list_my_drafts,
    method: 'GET',
    path: '/drafts',
    tag: 'Drafts',
    scope: 'account:read',
    summary: 'List your drafts',
    description: "Lists your drafts, newest first, with status and completeness. Call get_draft with a draft's id for its fields.",
    query: Type.Object({ ...Paging }, { additionalProperties: false }),
    output: ListOf(DraftSummary),
    notes:
      "Newest first (created_at, then id). name is the draft's name field (null until drafted or when the site does not state it). status includes failed (see submit_listing).",
    handler: async ({ page, per_page }, ctx) => {
      const { items, total } = await listDrafts(ctx.sql, owner(ctx), page, per_page);
      return {
        items: items.map((d) => ({ ...d, created_at: d.created_at.toISOString(), updated_at: d.updated_at.toISOString() })),
        ...pageInfo(page, per_page, total),
      };
    },
  }),

  defineOperation({
    name: 'get_draft',
    examples: draftsExamples.get_draft,
    method: 'GET',
    path: '/drafts/{id}',
    tag: 'Drafts',
    scope: 'account:read',
    summary: 'Get a draft',
    description:
      'Returns one of your drafts: status, every profile field with its state (ai, not_found, edited, ...) and evidence quotes, sections, completeness and the parts still missing. Poll it after submit_listing until status is ready; fill fields in state not_found with update_draft.',
    params: IdPath,
    notFoundParams: ['id'],
    output: Draft,
    notes: notes(
      NOT_YOURS,
      'Poll every few seconds while status is crawling or drafting. Field and section state is null until the AI has drafted it.',
      "Each part's value has the shape its update_draft key takes: fields.<name>.value is a string or a list of strings; faqs, founders and milestones values are lists whose items carry their own evidence; company_socials, founder_socials and story values are maps with an evidence map beside them. Evidence quotes are words found exactly (after normalising whitespace, case and entities) in the visible text of the crawled page named by url; text in scripts, styles, comments and hidden elements is never evidence.",
      'completeness is the whole percent (rounded) of 21 parts holding a value: the 18 profile fields plus at least one FAQ, one founder and one company social link; missing names the others in that order. The story, milestones and founder socials are optional (paid) sections and do not count.',
      'crawl lists the pages read and the links left out with the reason. failure is set when status is failed. listing_id is set once submit_draft has made the listing.',
    ),
    handler: async ({ id }, ctx) => ownDraftView(owner(ctx), id),
  }),

  defineOperation({
    name: 'update_draft',
    examples: draftsExamples.update_draft,
    method: 'PATCH',
    path: '/drafts/{id}',
    tag: 'Drafts',
    scope: 'listings:write',
    idempotent: true,
    openWorld: true,
    summary: 'Edit a draft',
    description:
      "Changes only what you send in one of your drafts: profile fields, FAQs, founders, socials, story, milestones, SEO, locks, AI redrafts (regenerate) or restores of the AI's values; regenerate and restore need status ready. Returns the updated draft; after submit_draft the listing changes too.",
    params: IdPath,
    notFoundParams: ['id'],
    body: UpdateBody,
    output: Draft,
    notes: notes(
      NOT_YOURS,
      "Field states: a typed value makes the field edited (the AI had a value) or manual (it had none); null, a blank string or an empty list deletes it (deleted). lock_fields makes it override: it keeps its value and AI redrafts leave it alone. restore brings back the AI's latest value and evidence (state ai, or not_found when the site did not state it). Sections (faqs, founders, company_socials, founder_socials, story, milestones) follow the same rules as one unit, and lock_fields, regenerate and restore accept their names too.",
      "Typed fields: logo_url takes an absolute http(s) URL; demo_video_url one on YouTube, Vimeo, Loom or Wistia; contact_email an e-mail address; each social link an absolute http(s) URL on its platform's host (linkedin.com, x.com or twitter.com, github.com, ...; website and custom any host); milestone links https only. A blank value still deletes. Anything else is a 400 naming the field. Submit_draft copies only values that passed these rules.",
      'Sections replace the whole section: faqs (max 10 items), founders (max 6, the first is primary), milestones (max 50), company_socials and founder_socials (platforms left out or empty are removed), story (sections left out or empty are removed). An empty list or map deletes the section. seo replaces both title and meta.',
      "regenerate (max 5 names) redrafts those parts from the stored crawl in a background job: they are listed in regenerating until the job writes them (a few seconds; poll get_draft). The status stays ready meanwhile. Editing, locking or restoring a part while it is regenerating takes it off the list (the user's change wins). regenerate_error tells why the last redraft failed, if it did.",
      'While the draft is crawling or drafting, user values may be set (fields, sections, locks, seo, competitor_url): the AI draft then skips the parts the user set. regenerate and restore need the AI draft: 409 while crawling or drafting, and regenerate also 409 on a failed draft. restore of a part the AI never drafted is 409. regenerate of a part in state override is 409 (restore it or type a value first).',
      'A name may not be in regenerate and also typed, restored or locked in the same call, nor in restore and also typed or locked (400). A value may be typed and locked in one call.',
      "categories take names or slugs from list_categories, in any case (duplicates are dropped); an unknown one is 400 unknown_category naming the item and offering a few valid slugs. The field's value stays names as list_categories spells them (the shape the API contract gives it), and fields.categories.slugs gives the slug of each, in order, in every draft answer. founded_year is a string, as the API contract types the draft field (e.g. \"2021\"); submit_draft stores it on the listing as an integer. competitor_url follows submit_listing's URL rules; the competitor's site is read the same way and comparison gains points backed by quotes from both sites (status crawling -> comparing -> ready, or failed with a reason). Sending the current competitor_url again does nothing unless its comparison failed (then it is retried); an empty string clears it.",
      'After submit_draft, the listing is updated in the same transaction with the parts this call changed (the same mapping as submit_draft); the regenerate job does the same when it finishes.',
    ),
    handler: async (input, ctx) => updateDraft({ ...owner(ctx), allowLoopback: ctx.config.allowLoopbackFetch }, input as unknown as DraftUpdate),
  }),

  defineOperation({
    name: 'invite_cofounder',
    examples: draftsExamples.invite_cofounder,
    method: 'POST',
    path: '/drafts/{id}/invites',
    tag: 'Drafts',
    scope: 'listings:write',
    status: 201,
    location: (invite) => `/drafts/${invite.draft_id}`,
    idempotent: true,
    openWorld: true,
    summary: 'Invite a co-founder to add their own profile',
    description:
      'E-mails a co-founder a single-use link to add their own founder profile (name, role, bio) to your draft; up to 10 addresses per draft. Returns the invite, never the link.',
    params: IdPath,
    notFoundParams: ['id'],
    body: InviteBody,
    output: Invite,
    notes: notes(
      NOT_YOURS,
      `At most ${INVITES_MAX} addresses per draft: inviting an 11th address is 409. Inviting an address again sends a fresh link (the earlier one stops working) and does not count twice; an address that has already accepted is 409.`,
      `Mail to any address on your behalf is capped: ${INVITES_PER_DAY} invites a day per person over all their drafts, and ${INVITE_MAILS_PER_ADDRESS_PER_DAY} invite mails a day per address (re-sends included); past either the answer is 429 invite_daily_limit. The mail's only text from you is your address and the product's name (one line, at most 80 characters).`,
      `The link (${'{site_url}'}/invites/{token}) works once and expires after ${INVITE_TTL_DAYS} days; the token is never returned by the API. The invitee adds themselves as a founder on that page (no account needed: the link is the proof); the founders section of the draft (and of the listing, once submitted) gains them, at most 6 founders.`,
    ),
    handler: async ({ id, email }, ctx) =>
      inviteCofounder({ ...owner(ctx), email: ctx.principal.email, siteName: ctx.site.name, siteUrl: ctx.config.siteUrl }, id, email),
  }),

  defineOperation({
    name: 'submit_draft',
    examples: draftsExamples.submit_draft,
    method: 'POST',
    path: '/drafts/{id}/submit',
    tag: 'Drafts',
    scope: 'listings:write',
    idempotent: true,
    summary: 'Turn a draft into a listing',
    description:
      'Saves a draft that is no longer crawling or drafting as a listing, not yet published (status draft), and returns its listing_id. Run it again after edits to update the same listing. Then publish it: choose_free_listing (free, needs a badge) or a paid launch with create_checkout.',
    params: IdPath,
    notFoundParams: ['id'],
    output: SubmittedListing,
    notes: notes(
      NOT_YOURS,
      '409 while the draft is crawling or drafting. A failed draft may be submitted with the values the user typed.',
      "Mapping: the listing belongs to the caller, under the company of the draft's domain (made when new). Its slug comes from the name and stays the same on later runs. Profile fields go to the listing's fields where the listing's own bounds allow: tagline 200, short_description and pricing_summary 300, pricing_model 40 and city 120 characters are cut at a word; country must be a two-letter code and founded_year a year 1800..2100, stage becomes a slug, otherwise they are left out; tags stay on the draft (a listing has no tags). adjusted lists every such case. A draft without a name gives the listing its domain as name.",
      "categories: the first name is the primary category (the answer gives the listing's categories as names, and as slugs in category_slugs); a free listing keeps only that one (extra categories come with a paid plan), a paid one up to 3 more. FAQs, company socials, founders (the first is primary; founder_socials go to the primary founder), story and milestones replace the listing's. not_found_on_website lists the profile fields whose state is not_found. seo goes to the listing's SEO title and description.",
      'Nothing is published: a listing in status draft appears on no public page. If the listing was published since, public reads are refreshed at once.',
    ),
    handler: async ({ id }, ctx) => submitDraft(owner(ctx), id),
  }),
];
