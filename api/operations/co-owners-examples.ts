// Examples of the co-owner operations, in the shape of the demo data (seeds/): a demo owner and one co-owner by e-mail claim.
import type { OperationExamples } from '../registry/operation.ts';

export const coOwnersExamples = {
  list_co_owners: {
    input: { listing_id: 1 },
    output: {
      listing_id: 1,
      owner: { user_id: 3, email: 'owner@relaydesk.example', verified: true },
      co_owners: [{ user_id: 58, email: 'cto@relaydesk.example', since: '2026-11-20T09:14:03Z', method: 'email' }],
    },
    error: { status: 404, code: 'not_found', detail: "No listing 4242 of yours on this site (another account's listing is reported the same way)." },
  },
  remove_co_owner: {
    input: { listing_id: 1, user_id: 58 },
    output: { listing_id: 1, removed_user_id: 58 },
    error: {
      status: 403,
      code: 'owner_only',
      detail: 'Only the owner of this listing can remove a co-owner; co-owners can edit the listing but remove nobody.',
    },
  },
} satisfies Record<string, OperationExamples>;
