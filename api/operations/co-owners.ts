// list_co_owners and remove_co_owner on your listing.
import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { Nullable } from '../registry/schemas.ts';
import { listingOwner, notes, NOT_YOURS } from './my-listings.ts';
import { listingOwners, removeCoOwner } from '../../core/listings/co-owners.ts';
import { coOwnersExamples } from './co-owners-examples.ts';

const IntId = (description: string) => Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991, description });

export const coOwnersOperations: Operation[] = [
  defineOperation({
    name: 'list_co_owners',
    examples: coOwnersExamples.list_co_owners,
    method: 'GET',
    path: '/me/listings/{listing_id}/co-owners',
    tag: 'My listings',
    scope: 'account:read',
    summary: "List your listing's owner and co-owners",
    description:
      'Lists who controls one of your listings: its owner (with whether they proved control of the domain) and its co-owners, each with how and when they became one. Co-owners appear when someone verifies a claim against an owner who proved control, or claims by e-mail. Use it before remove_co_owner to find the user_id to remove.',
    params: Type.Object({ listing_id: IntId("Your listing's id (from list_my_listings), e.g. 371.") }, { additionalProperties: false }),
    notFoundParams: ['listing_id'],
    output: Type.Object({
      listing_id: Type.Integer(),
      owner: Nullable(Type.Object({ user_id: Type.Integer(), email: Type.String(), verified: Type.Boolean() })),
      co_owners: Type.Array(Type.Object({ user_id: Type.Integer(), email: Type.String(), since: Type.String(), method: Nullable(Type.String()) })),
    }),
    notes: notes(
      NOT_YOURS,
      'A verified DNS, meta or file claim against an owner who never proved control of the domain makes the claimant the owner; against one who did, a co-owner. An e-mail claim always makes a co-owner. Co-owners edit the listing like its owner; the owner removes them with remove_co_owner. Each change is in the ownership history and mailed to the person it affects, with a link to dispute it.',
    ),
    handler: async ({ listing_id }, ctx) => listingOwners(listingOwner(ctx), listing_id),
  }),

  defineOperation({
    name: 'remove_co_owner',
    examples: coOwnersExamples.remove_co_owner,
    method: 'DELETE',
    path: '/me/listings/{listing_id}/co-owners/{user_id}',
    tag: 'My listings',
    scope: 'listings:write',
    idempotent: true,
    summary: 'Remove a co-owner from your listing',
    description: "Removes a co-owner from your listing; only the owner may, not another co-owner. Returns the listing id and the removed user's id.",
    params: Type.Object(
      { listing_id: IntId("Your listing's id (from list_my_listings), e.g. 371."), user_id: IntId("The co-owner's user_id from list_co_owners, e.g. 58.") },
      { additionalProperties: false },
    ),
    notFoundParams: ['listing_id', 'user_id'],
    output: Type.Object({ listing_id: Type.Integer(), removed_user_id: Type.Integer() }),
    notes: notes(
      NOT_YOURS,
      '403 owner_only when you are a co-owner yourself; 404 when the user is not a co-owner of the listing. The removal is in the ownership history.',
    ),
    handler: async ({ listing_id, user_id }, ctx) => removeCoOwner(listingOwner(ctx), listing_id, user_id),
  }),
];
