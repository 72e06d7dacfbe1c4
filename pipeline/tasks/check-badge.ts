import { JOBS } from '../../core/jobs/index.ts';
import { checkBadge } from '../../core/listings/publishing.ts';
import type { SiteCheckDeps } from './site-check-deps.ts';
import { defineTask } from './task.ts';

/** check_badge {listing_id}: one look for our badge on a queued free listing's homepage. */
export const checkBadgeTask = (deps: SiteCheckDeps) =>
  defineTask(JOBS.check_badge, async ({ listing_id }) => {
    await checkBadge(deps.sql, deps.fetcher, listing_id);
  });
