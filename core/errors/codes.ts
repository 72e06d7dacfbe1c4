// Every machine code a client (or an agent) can get back, in one place: each with the domain kind
// the edge maps to an HTTP status, and a sentence for the OpenAPI document and /problems pages.
// Codes are stable API: add new ones, never rename or reuse one.
export type ErrorKind =
  | 'invalid'
  | 'not_found'
  | 'unauthorized'
  | 'forbidden'
  | 'conflict'
  | 'too_large'
  | 'rate_limited'
  | 'unprocessable'
  | 'unavailable'
  /** A failure on our side: never thrown as a DomainError, named so every problem body carries a code. */
  | 'internal';

interface CodeInfo {
  kind: ErrorKind;
  about: string;
}

export const ERROR_CODES = {
  // Generic codes, one per kind: used where nothing more specific is worth telling apart.
  invalid_input: { kind: 'invalid', about: "The input did not match the operation's schema or rules; `errors` names each field." },
  not_found: { kind: 'not_found', about: "No such resource (another account's private resource is reported the same way)." },
  unauthorized: { kind: 'unauthorized', about: 'The credential is missing, invalid, expired, revoked or issued for another resource.' },
  forbidden: { kind: 'forbidden', about: 'The credential is valid but lacks the scope the operation needs.' },
  conflict: { kind: 'conflict', about: 'The request conflicts with the current state of the resource.' },
  too_large: { kind: 'too_large', about: 'The request body is larger than the service accepts.' },
  rate_limited: { kind: 'rate_limited', about: 'A rate limit was reached; retry after the Retry-After seconds.' },
  unprocessable: { kind: 'unprocessable', about: 'The request is well-formed but cannot be processed.' },
  unavailable: { kind: 'unavailable', about: 'A system the service depends on is unavailable; retry after the Retry-After seconds.' },
  internal: {
    kind: 'internal',
    about: 'Something failed on our side; the request id (`instance`) helps us find it. Nothing was changed unless the response says so.',
  },

  // Credentials.
  credential_required: {
    kind: 'unauthorized',
    about: 'The operation needs a credential and none was sent: send `Authorization: Bearer <API key or access token>` (MCP clients sign in with OAuth).',
  },
  invalid_credential: {
    kind: 'unauthorized',
    about: 'The credential sent is unknown, expired, revoked, issued for another resource, or its account no longer exists.',
  },
  insufficient_scope: { kind: 'forbidden', about: 'The credential is valid but lacks the scope the operation needs (WWW-Authenticate names it).' },

  registration_rate_limited: {
    kind: 'rate_limited',
    about:
      'One address registers at most OAUTH_REGISTRATIONS_PER_HOUR OAuth clients an hour (dynamic client registration); reuse a client_id or retry after the Retry-After seconds.',
  },

  // Reading the request.
  bad_request: { kind: 'invalid', about: 'The request could not be read: a malformed body, or a URL with characters the service refuses (NUL).' },
  malformed_json: { kind: 'invalid', about: 'The request body is not valid JSON.' },
  method_not_allowed: { kind: 'invalid', about: 'The path exists but does not take this method; the Allow header lists the ones it takes.' },
  unsupported_media_type: { kind: 'invalid', about: 'Request bodies must be application/json.' },

  // Input the schema alone cannot check.
  url_not_public: {
    kind: 'invalid',
    about:
      'A submitted or competitor URL is not a public http(s) website: not an http(s) URL, a user name or password in it, a private or loopback address, a private name, or not a domain name.',
  },
  unknown_category: { kind: 'invalid', about: 'A category name is not one list_categories returns; `errors` names each.' },
  contradictory_edit: { kind: 'invalid', about: 'One update_draft call asks for contradictory things for the same part (e.g. type and regenerate it).' },
  week_not_in_calendar: { kind: 'not_found', about: "The week is before the site's first launch week or further ahead than the launch calendar runs." },

  // Idempotency-Key.
  idempotency_key_reused: { kind: 'unprocessable', about: 'This Idempotency-Key was already used with a different request; send a new key for a new request.' },
  idempotency_request_in_flight: {
    kind: 'conflict',
    about: 'A request with this Idempotency-Key is still being processed; retry after Retry-After to get its response.',
  },

  // Drafts.
  draft_in_progress: { kind: 'conflict', about: 'The draft is still crawling or drafting; poll get_draft until it is ready.' },
  draft_not_ready: {
    kind: 'conflict',
    about: 'The draft cannot become a listing: its website could not be read (status failed), or it has no name, tagline or description yet.',
  },
  draft_failed: { kind: 'conflict', about: "The draft's site could not be read (status failed), so there is nothing to redraft from." },
  field_locked: { kind: 'conflict', about: 'The field is locked against AI redrafts (override); restore it or type a value first.' },
  nothing_to_restore: { kind: 'conflict', about: 'The AI has not drafted this field, so there is no AI value to restore.' },
  invite_limit_reached: { kind: 'conflict', about: 'A draft has at most 10 co-founder invites.' },
  invite_already_accepted: { kind: 'conflict', about: 'That address has already accepted an invite to this draft.' },
  invite_daily_limit: {
    kind: 'rate_limited',
    about: 'A person invites at most 20 co-founders a day over all their drafts, and an address gets at most 3 invite mails a day; try again tomorrow.',
  },

  // One product, one public listing per site.
  listing_exists: {
    kind: 'conflict',
    about:
      'This product (its site: the host without www., plus the first path segment on shared hosts such as github.com) already has a live, scheduled or queued listing on this site. The problem names it (existing_listing.slug) and how to claim it (claim: claim_listing with that slug); a product has one public listing per site.',
  },

  // Publishing a listing (choose_free_listing).
  listing_not_submitted: { kind: 'conflict', about: 'Free launches are for listings saved by submit_draft; this one was not.' },
  listing_already_published: { kind: 'conflict', about: 'The listing is already live (or otherwise past the free queue), so it cannot be queued.' },
  listing_paid: { kind: 'conflict', about: 'The listing is on the paid plan: its launch week comes with the paid launch, not the free queue.' },
  free_queue_full: {
    kind: 'conflict',
    about: 'Every launch week of the free queue window already has its launch slots taken; try again later or buy a launch.',
  },

  apply_to_not_owned: {
    kind: 'forbidden',
    about:
      'apply_to names a site where this product is listed by someone else: sharing a domain is not owning. Nothing was changed on any site; leave that site out, or claim the listing there first.',
  },

  free_week_full: { kind: 'conflict', about: 'The launch week chosen for a free launch has no free slot left; choose another week of the free queue.' },

  // Checking the badge now (check_badge_now).
  listing_not_queued: { kind: 'conflict', about: 'Only a listing awaiting its badge or scheduled has a badge to check.' },
  badge_check_too_soon: {
    kind: 'rate_limited',
    about: "A listing's badge is checked on request at most once a minute; the message says when the next check may run.",
  },

  milestone_limit_reached: { kind: 'conflict', about: 'A listing has at most 50 milestones; delete one first.' },

  // Claims.
  already_owner: { kind: 'conflict', about: 'You already own this listing; there is nothing to claim.' },
  owner_only: { kind: 'forbidden', about: 'Only the owner of the listing may do this; co-owners edit the listing but remove nobody.' },
  claim_mail_daily_limit: {
    kind: 'rate_limited',
    about: 'An address, and a listing, get at most 3 claim mails a day; try again after the Retry-After seconds.',
  },

  // Orders and payments.
  launch_week_full: { kind: 'invalid', about: 'The chosen launch week has no free slot left; choose another week from list_products.' },
  contradictory_order: { kind: 'invalid', about: 'Two items of the order contradict each other (e.g. two launches for one listing); `errors` names them.' },
  product_already_applied: {
    kind: 'conflict',
    about:
      'The listing already has this product (launch, skip_queue or relaunch) in another order that is waiting for payment, paid, or in effect; a second one would do nothing, so it is refused before anything is charged. existing_order names that order.',
  },
  order_not_payable: { kind: 'conflict', about: 'The order is no longer waiting for payment (paid, expired or refunded).' },
  stripe_keys_disabled: {
    kind: 'unprocessable',
    about: 'This site does not accept Stripe keys (no REVENUE_KEYS_SECRET is configured to store them encrypted); report the revenue yourself instead.',
  },
  payment_provider_unavailable: {
    kind: 'unavailable',
    about: 'The payment provider could not be reached; nothing was saved. Retry after the Retry-After seconds.',
  },
} as const satisfies Record<string, CodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const kindOf = (code: ErrorCode): ErrorKind => ERROR_CODES[code].kind;
export const isErrorCode = (s: string): s is ErrorCode => Object.hasOwn(ERROR_CODES, s);

/** The generic code of each kind, for errors recorded before codes existed. */
export const GENERIC_CODE: Record<ErrorKind, ErrorCode> = {
  invalid: 'invalid_input',
  not_found: 'not_found',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  conflict: 'conflict',
  too_large: 'too_large',
  rate_limited: 'rate_limited',
  unprocessable: 'unprocessable',
  unavailable: 'unavailable',
  internal: 'internal',
};
