// add_milestone and delete_milestone on your listing.
import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { Nullable } from '../registry/schemas.ts';
import { HTTPS_RULE, urlPattern } from '../../core/validation/urls.ts';
import { listingOwner, notes, NOT_YOURS } from './my-listings.ts';
import { addMilestone, deleteMilestone, MILESTONES_MAX } from '../../core/listings/milestones.ts';

const IntId = (description: string) => Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991, description });
const PUBLISHED =
  'Milestones show on the public profile only when the milestones section is unlocked (a paid section) and the listing is live; published says whether that is so.';

export const milestonesOperations: Operation[] = [
  defineOperation({
    name: 'add_milestone',
    method: 'POST',
    path: '/me/listings/{listing_id}/milestones',
    tag: 'My listings',
    scope: 'listings:write',
    status: 201,
    location: (m, input) => `/me/listings/${input.listing_id}/milestones/${m.id}`,
    idempotent: true,
    summary: 'Add a milestone',
    description: 'Adds a dated milestone (title, optional description and https link) to your listing.',
    params: Type.Object({ listing_id: IntId("Your listing's id.") }, { additionalProperties: false }),
    notFoundParams: ['listing_id'],
    body: Type.Object(
      {
        date: Type.String({ format: 'date', description: 'YYYY-MM-DD.' }),
        title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
        description: Type.Optional(Type.String({ maxLength: 2000 })),
        url: Type.Optional(Type.String({ maxLength: 500, pattern: urlPattern(HTTPS_RULE), description: 'An absolute https link.' })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      id: Type.Integer({ minimum: 1 }),
      listing_id: Type.Integer(),
      date: Type.String({ format: 'date' }),
      title: Type.String(),
      description: Nullable(Type.String()),
      url: Nullable(Type.String()),
      published: Type.Boolean(),
    }),
    notes: notes(
      NOT_YOURS,
      `url must be https (http and other schemes are 400). At most ${MILESTONES_MAX} milestones per listing: one more is 409 milestone_limit_reached.`,
      PUBLISHED,
    ),
    handler: async ({ listing_id, ...m }, ctx) => addMilestone(listingOwner(ctx), listing_id, m),
  }),

  defineOperation({
    name: 'delete_milestone',
    method: 'DELETE',
    path: '/me/listings/{listing_id}/milestones/{milestone_id}',
    tag: 'My listings',
    scope: 'listings:write',
    idempotent: true,
    summary: 'Delete a milestone',
    description: 'Removes one milestone from your listing.',
    params: Type.Object({ listing_id: IntId("Your listing's id."), milestone_id: IntId("The milestone's id.") }, { additionalProperties: false }),
    notFoundParams: ['listing_id', 'milestone_id'],
    output: Type.Object({ id: Type.Integer(), deleted: Type.Literal(true) }),
    notes: notes(
      NOT_YOURS,
      '404 as well when the milestone is unknown or on another listing; deleting it again is a 404 (with the same Idempotency-Key, the first answer is replayed).',
    ),
    handler: async ({ listing_id, milestone_id }, ctx) => deleteMilestone(listingOwner(ctx), listing_id, milestone_id),
  }),
];
