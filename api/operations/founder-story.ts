// set_founder_story: the listing's founder story, published with it where unlocked.
import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { ListingIdPath } from './my-listings-schemas.ts';
import { listingOwner, notes, NOT_YOURS } from './my-listings.ts';
import { setFounderStory, STORY_MAX, STORY_SECTIONS, type StorySection } from '../../core/listings/story.ts';
import { founderStoryExamples } from './founder-story-examples.ts';

const sections = Object.fromEntries(STORY_SECTIONS.map((s) => [s, Type.Optional(Type.String({ maxLength: STORY_MAX[s] }))]));

export const founderStoryOperations: Operation[] = [
  defineOperation({
    name: 'set_founder_story',
    examples: founderStoryExamples.set_founder_story,
    method: 'PUT',
    path: '/me/listings/{listing_id}/story',
    tag: 'My listings',
    scope: 'listings:write',
    idempotent: true,
    summary: 'Set the founder story',
    description:
      'Replaces the founder story of one of your listings, section by section; sections left out or empty are removed. It shows on the public profile while the listing is live and its story section (a paid option) is unlocked.',
    params: ListingIdPath,
    notFoundParams: ['listing_id'],
    body: Type.Object(sections, { additionalProperties: false }),
    output: Type.Object({
      sections: Type.Record(Type.String(), Type.String(), { description: 'The sections now stored.' }),
      updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      published: Type.Boolean({ description: 'Shown on the public profile now: the listing is live and the story section is unlocked (a paid section).' }),
    }),
    notes: notes(
      'Sections: title (max 200 characters), story, why_started, problem, journey, challenges, achievements, lessons, whats_next (max 8000 each).',
      NOT_YOURS,
      'PUT replaces the whole story: sections left out or empty are removed; an empty body (or no body) deletes the story. The story shows on the public profile (get_listing story) only where the story section is unlocked for the listing, and only while it is live; it is stored either way.',
    ),
    handler: async ({ listing_id, ...story }, ctx) => setFounderStory(listingOwner(ctx), listing_id, story as Partial<Record<StorySection, string>>),
  }),
];
