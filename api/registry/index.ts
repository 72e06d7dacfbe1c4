import type { Operation } from './operation.ts';
import { siteOperations } from '../operations/site.ts';
import { listingsOperations } from '../operations/listings.ts';
import { categoriesOperations } from '../operations/categories.ts';
import { launchesOperations } from '../operations/launches.ts';
import { launchIntegrityOperations } from '../operations/launch-integrity.ts';
import { leaderboardsOperations } from '../operations/leaderboards.ts';
import { foundersOperations } from '../operations/founders.ts';
import { blogOperations } from '../operations/blog.ts';
import { awardsOperations } from '../operations/awards.ts';
import { badgesOperations } from '../operations/badges.ts';
import { interviewOperations } from '../operations/interview.ts';
import { productsOperations } from '../operations/products.ts';
import { accountOperations } from '../operations/account.ts';
import { draftsOperations } from '../operations/drafts.ts';
import { myListingsOperations } from '../operations/my-listings.ts';
import { freeListingOperations } from '../operations/free-listing.ts';
import { claimsOperations } from '../operations/claims.ts';
import { listingUpdatesOperations } from '../operations/listing-updates.ts';
import { milestonesOperations } from '../operations/milestones.ts';
import { coOwnersOperations } from '../operations/co-owners.ts';
import { founderStoryOperations } from '../operations/founder-story.ts';
import { ordersOperations } from '../operations/orders.ts';
import { makerInsightsOperations } from '../operations/maker-insights.ts';

/** Every operation of the service. REST, MCP and OpenAPI are all generated from this list. */
export const operations: Operation[] = [
  ...siteOperations,
  ...listingsOperations,
  ...categoriesOperations,
  ...launchesOperations,
  ...launchIntegrityOperations,
  ...leaderboardsOperations,
  ...foundersOperations,
  ...blogOperations,
  ...awardsOperations,
  ...badgesOperations,
  ...interviewOperations,
  ...productsOperations,
  ...accountOperations(() => operations),
  ...draftsOperations,
  ...myListingsOperations,
  ...freeListingOperations,
  ...claimsOperations,
  ...listingUpdatesOperations,
  ...milestonesOperations,
  ...coOwnersOperations,
  ...founderStoryOperations,
  ...ordersOperations,
  ...makerInsightsOperations,
];

const names = new Set<string>();
for (const op of operations) {
  if (names.has(op.name)) throw new Error(`operation ${op.name} is defined twice`);
  names.add(op.name);
}
