// Claims: claim a listing of your company, verify it, list yours. Logic in core/claims/.
import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation, type OperationContext, type Principal } from '../registry/operation.ts';
import { ListOf, Nullable, Paging } from '../registry/schemas.ts';
import { notes } from './my-listings.ts';
import { CLAIM_METHODS, CLAIM_TTL_DAYS, DNS_LABEL, FILE_PATH, META_NAME } from '../../core/claims/instructions.ts';
import { CLAIM_MAILS_PER_DAY, createClaim } from '../../core/claims/create-claim.ts';
import { claimRows, claimView } from '../../core/claims/store.ts';
import { verifyClaim, type ClaimChecks } from '../../core/claims/verify-claim.ts';
import { createSafeFetcher } from '../../core/net/ssrf-fetch.ts';
import { createTxtLookup } from '../../core/dns/txt-lookup.ts';
import { pageInfo } from '../../sql/queries/summaries.ts';
import { claimsExamples } from './claims-examples.ts';

const Iso = Type.String({ format: 'date-time' });
const Claim = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  listing: Type.Object({ id: Type.Integer(), slug: Type.String(), name: Type.String(), domain: Type.String() }),
  method: Type.Union(CLAIM_METHODS.map((m) => Type.Literal(m))),
  email: Nullable(Type.String()),
  status: Type.Union([Type.Literal('pending'), Type.Literal('verified'), Type.Literal('expired')]),
  instructions: Type.Object({
    summary: Type.String({ description: 'What to do, in one sentence.' }),
    dns: Nullable(Type.Object({ type: Type.Literal('TXT'), name: Type.String(), value: Type.String() })),
    meta: Nullable(Type.Object({ tag: Type.String({ description: 'Paste into the <head> of the page.' }), page: Type.String() })),
    file: Nullable(Type.Object({ path: Type.String(), url: Type.String(), content: Type.String() })),
    email: Nullable(Type.Object({ sent_to: Type.String() })),
  }),
  last_check: Nullable(
    Type.Object(
      { at: Nullable(Iso), reason: Type.String(), detail: Nullable(Type.String()) },
      {
        description: 'Why the last check did not verify the claim.',
      },
    ),
  ),
  created_at: Iso,
  expires_at: Iso,
  verified_at: Nullable(Iso),
});
const ClaimIdPath = Type.Object(
  { claim_id: Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991, description: 'The claim id from claim_listing or list_my_claims, e.g. 12.' }) },
  { additionalProperties: false },
);

const userId = (ctx: OperationContext) => (ctx.principal as Principal).userId;
const checks = (ctx: OperationContext): ClaimChecks => ({
  fetcher: createSafeFetcher({ allowLoopback: ctx.config.allowLoopbackFetch, userAgent: ctx.config.crawlerUserAgent, timeoutMs: 10_000, maxBytes: 1_000_000 }),
  txt: createTxtLookup({ server: ctx.config.claimDnsServer, timeoutMs: 3000 }),
  siteName: ctx.site.name,
  siteUrl: ctx.config.siteUrl,
});
const NOT_YOURS = "404 when the claim is unknown or another account's (the same 404).";

export const claimsOperations: Operation[] = [
  defineOperation({
    name: 'claim_listing',
    examples: claimsExamples.claim_listing,
    method: 'POST',
    path: '/claims',
    tag: 'Claims',
    scope: 'listings:write',
    status: 201,
    location: () => '/claims',
    idempotent: true,
    openWorld: true,
    summary: 'Claim a listing of your company',
    description:
      "Starts claiming an existing listing of your company (by slug) and returns what to publish to prove it: a DNS TXT record, a meta tag or a file, or with method email a link sent to an address at the listing's domain. Then call verify_claim once it is in place.",
    body: Type.Object(
      {
        slug: Type.String({
          minLength: 1,
          maxLength: 220,
          pattern: '^[a-z0-9][a-z0-9-]{0,219}$',
          description: 'The slug of the listing to claim, e.g. atlasworks.',
        }),
        method: Type.Union(
          CLAIM_METHODS.map((m) => Type.Literal(m)),
          { description: 'dns, meta, file or email.' },
        ),
        email: Type.Optional(
          Type.String({
            format: 'email',
            maxLength: 254,
            description: "Method email only: an address at the listing's domain or a subdomain of it, e.g. founder@atlasworks.so.",
          }),
        ),
      },
      { additionalProperties: false },
    ),
    output: Claim,
    notes: notes(
      "404 when no listing of this site has the slug (drafts cannot be claimed). 409 already_owner when you own it already. email is required for method email and refused for the others (400); an address outside the listing's domain (a leading www. is ignored) or its subdomains is 400. A product on a shared host (github.com, *.vercel.app, ...) cannot be claimed by dns or email (400 naming method): the host's DNS and mail prove nothing about one product.",
      `What to publish: dns: a TXT record named ${DNS_LABEL}.<domain> with the value listing-directory-verification=<token>; meta: <meta name="${META_NAME}" content="<token>"> on the homepage (the listing's url); file: ${FILE_PATH} on the listing's site holding listing-directory-verification=<token> on a line of its own; email: a single link mailed to the address, whose page shows a "Confirm claim" button, and only pressing it (a POST) verifies the claim, so mail scanners opening links do nothing.`,
      `A pending claim expires ${CLAIM_TTL_DAYS} days after it was made (its link with it); start a new one then. Each call starts a new claim with its own token.`,
      `Claim mails are capped: an address, and a listing, get at most ${CLAIM_MAILS_PER_DAY} a day; past that the answer is 429 claim_mail_daily_limit with Retry-After. The mail names the account that asked and what confirming does.`,
    ),
    handler: async (input, ctx) =>
      createClaim(
        {
          sql: ctx.sql,
          userId: userId(ctx),
          email: (ctx.principal as Principal).email,
          siteId: ctx.site.id,
          siteName: ctx.site.name,
          siteUrl: ctx.config.siteUrl,
        },
        input,
      ),
  }),

  defineOperation({
    name: 'verify_claim',
    examples: claimsExamples.verify_claim,
    method: 'POST',
    path: '/claims/{claim_id}/verify',
    tag: 'Claims',
    scope: 'listings:write',
    idempotent: true,
    openWorld: true,
    summary: 'Check a claim now',
    description:
      "Checks a claim's DNS record, meta tag or file now, once you have put it in place. Returns the claim: verified (you now own the listing) or still pending with the reason in last_check.",
    params: ClaimIdPath,
    notFoundParams: ['claim_id'],
    output: Claim,
    notes: notes(
      NOT_YOURS,
      'A failed check leaves the claim pending (fix and call again until it expires) with last_check.reason: dns_record_not_found, dns_record_mismatch, dns_unavailable, meta_tag_not_found, file_not_found, file_mismatch, site_unreachable, site_error, site_too_large, site_not_html, site_refused (a redirect to another host or a private address, ...), or email_link_not_opened for method email. Pages are read through the SSRF-safe fetcher (10 s, 1 MB) on the host of the listing url only: redirects are followed within that host (http to https and a leading www. allowed), never to another host. The meta tag counts only in the <head> of the page as served (not in the body, a comment, <noscript> or <template>). A TXT record published as several strings counts as the strings joined. DNS with a 3 s timeout. A verified or expired claim is answered as it is.',
      "A verified claim makes you the listing's owner (it appears in list_my_listings) and an owner of its company (every listing of the company); the earlier owner is told by e-mail, and the ownership history keeps both. The listing's `verified` badge means it has a verified claim.",
    ),
    handler: async ({ claim_id }, ctx) => verifyClaim(ctx.sql, userId(ctx), claim_id, checks(ctx)),
  }),

  defineOperation({
    name: 'list_my_claims',
    examples: claimsExamples.list_my_claims,
    method: 'GET',
    path: '/claims',
    tag: 'Claims',
    scope: 'account:read',
    summary: 'List your claims',
    description:
      "Lists your claims, newest first, with status and the instructions to complete each. Call verify_claim with a claim's id once its record, tag or file is in place.",
    query: Type.Object({ ...Paging }, { additionalProperties: false }),
    output: ListOf(Claim),
    notes: 'Status values: pending, verified, expired.',
    handler: async ({ page, per_page }, ctx) => {
      const { rows, total } = await claimRows(ctx.sql, userId(ctx), { page, perPage: per_page });
      return { items: rows.map(claimView), ...pageInfo(page, per_page, total) };
    },
  }),
];
