import { JOBS } from '../../core/jobs/index.ts';
import { sweepListings } from '../../core/listings/publishing.ts';
import type { SiteCheckDeps } from './site-check-deps.ts';
import { defineTask } from './task.ts';

/** sweep_listings (every 10 minutes): due go-lives and badge re-checks, so nothing queued is left behind. */
export const sweepListingsTask = (deps: SiteCheckDeps) =>
  defineTask(JOBS.sweep_listings, async (_payload, helpers) => {
    const n = await sweepListings(deps.sql);
    if (n.goLive > 0) helpers.logger.info(`sweep_listings: ${n.goLive} go-lives due`);
  });
