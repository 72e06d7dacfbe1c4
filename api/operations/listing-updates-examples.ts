// Examples of the listing-updates operations: real answers of the demo data (seeds/), shortened to two items a list.
import type { OperationExamples } from '../registry/operation.ts';

export const listingUpdatesExamples = {
  post_listing_update: {
    input: { listing_id: 1, title: 'Version 2.0 is out', body: 'Offline mode, faster sync and a new editor.' },
    output: {
      id: 157,
      listing_id: 1,
      title: 'Version 2.0 is out',
      body: 'Offline mode, faster sync and a new editor.',
      created_at: '2026-11-28T04:57:52Z',
      followers: 0,
      published: true,
    },
    error: { status: 404, code: 'not_found', detail: "No listing 4242 of yours on this site (another account's listing is reported the same way)." },
  },
} satisfies Record<string, OperationExamples>;
