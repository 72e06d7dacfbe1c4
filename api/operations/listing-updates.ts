// post_listing_update: "what's new" on the public profile, and followers told by mail.
import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { ListingIdPath } from './my-listings-schemas.ts';
import { listingOwner, notes, NOT_YOURS } from './my-listings.ts';
import { postListingUpdate } from '../../core/listings/updates.ts';
import { listingUpdatesExamples } from './listing-updates-examples.ts';

export const listingUpdatesOperations: Operation[] = [
  defineOperation({
    name: 'post_listing_update',
    examples: listingUpdatesExamples.post_listing_update,
    method: 'POST',
    path: '/me/listings/{listing_id}/updates',
    tag: 'My listings',
    scope: 'listings:write',
    status: 201,
    location: (_update, input) => `/me/listings/${input.listing_id}`,
    idempotent: true,
    openWorld: true,
    summary: "Post an update (what's new)",
    description:
      "Posts a plain-text update to one of your listings; it appears under latest updates on the public profile and is e-mailed to the listing's followers. Returns the update.",
    params: ListingIdPath,
    notFoundParams: ['listing_id'],
    body: Type.Object(
      {
        title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
        body: Type.String({ minLength: 1, maxLength: 5000, pattern: '\\S', description: 'Plain text (shown as text, never as HTML).' }),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      id: Type.Integer({ minimum: 1 }),
      listing_id: Type.Integer(),
      title: Type.String(),
      body: Type.String(),
      created_at: Type.String({ format: 'date-time' }),
      followers: Type.Integer({ description: 'Followers who will be told by e-mail.' }),
      published: Type.Boolean({ description: 'false while the listing is not live: the update waits and no one is mailed.' }),
    }),
    notes: notes(
      NOT_YOURS,
      'The profile (get_listing latest_updates) shows the 5 newest updates of a live listing at once. Each follower of a live listing gets one e-mail per update (a background job; exactly once per follower even when the job is retried), with a link that stops further update mail for that listing without signing in (a page with a button; only its POST unsubscribes). Updates to a listing that is not live are kept and shown once it is live, but no mail is sent for them.',
    ),
    handler: async ({ listing_id, title, body }, ctx) => postListingUpdate(listingOwner(ctx), listing_id, { title, body }),
  }),
];
