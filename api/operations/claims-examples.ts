// Examples of the claims operations: real answers of the demo data (seeds/), shortened to two items a list.
import type { OperationExamples } from '../registry/operation.ts';

export const claimsExamples = {
  claim_listing: {
    input: { slug: 'atlasworks', method: 'dns' },
    output: {
      id: 1,
      listing: { id: 33, slug: 'atlasworks', name: 'Atlasworks', domain: 'atlasworks.so.example' },
      method: 'dns',
      email: null,
      status: 'pending',
      instructions: {
        dns: { type: 'TXT', name: '_listing-directory.atlasworks.so.example', value: 'listing-directory-verification=QQBwUIwPSugXabZNTMCXcgkK_O53fVlm' },
        meta: null,
        file: null,
        email: null,
        summary:
          'Add a DNS TXT record named _listing-directory.atlasworks.so.example with the value listing-directory-verification=QQBwUIwPSugXabZNTMCXcgkK_O53fVlm, then call verify_claim.',
      },
      last_check: null,
      created_at: '2026-11-28T04:57:52Z',
      expires_at: '2026-12-05T04:57:52Z',
      verified_at: null,
    },
    error: { status: 409, code: 'already_owner', detail: 'You already own atlasworks.' },
  },
  verify_claim: {
    input: { claim_id: 1 },
    output: {
      id: 1,
      listing: { id: 33, slug: 'atlasworks', name: 'Atlasworks', domain: 'atlasworks.so.example' },
      method: 'dns',
      email: null,
      status: 'pending',
      instructions: {
        dns: { type: 'TXT', name: '_listing-directory.atlasworks.so.example', value: 'listing-directory-verification=QQBwUIwPSugXabZNTMCXcgkK_O53fVlm' },
        meta: null,
        file: null,
        email: null,
        summary:
          'Add a DNS TXT record named _listing-directory.atlasworks.so.example with the value listing-directory-verification=QQBwUIwPSugXabZNTMCXcgkK_O53fVlm, then call verify_claim.',
      },
      last_check: { at: '2026-11-28T04:57:52Z', reason: 'dns_record_not_found', detail: 'no TXT record at _listing-directory.atlasworks.so.example' },
      created_at: '2026-11-28T04:57:52Z',
      expires_at: '2026-12-05T04:57:52Z',
      verified_at: null,
    },
    error: { status: 404, code: 'not_found', detail: "No claim 77 of yours (another account's claim is reported the same way)." },
  },
  list_my_claims: {
    input: { page: 1, per_page: 20 },
    output: {
      items: [
        {
          id: 1,
          listing: { id: 33, slug: 'atlasworks', name: 'Atlasworks', domain: 'atlasworks.so.example' },
          method: 'dns',
          email: null,
          status: 'pending',
          instructions: {
            dns: { type: 'TXT', name: '_listing-directory.atlasworks.so.example', value: 'listing-directory-verification=QQBwUIwPSugXabZNTMCXcgkK_O53fVlm' },
            meta: null,
            file: null,
            email: null,
            summary:
              'Add a DNS TXT record named _listing-directory.atlasworks.so.example with the value listing-directory-verification=QQBwUIwPSugXabZNTMCXcgkK_O53fVlm, then call verify_claim.',
          },
          last_check: null,
          created_at: '2026-11-28T04:57:52Z',
          expires_at: '2026-12-05T04:57:52Z',
          verified_at: null,
        },
      ],
      page: 1,
      per_page: 20,
      total: 1,
      has_more: false,
    },
    error: { status: 403, code: 'insufficient_scope', detail: 'This credential lacks the account:read scope.' },
  },
} satisfies Record<string, OperationExamples>;
