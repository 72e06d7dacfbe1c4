import { JOBS } from '../../core/jobs/index.ts';
import { goLive } from '../../core/listings/publishing.ts';
import type { SiteCheckDeps } from './site-check-deps.ts';
import { defineTask } from './task.ts';

/** go_live {listing_id}: at the start of the launch week, the last badge check and the move to live (or back to draft). */
export const goLiveTask = (deps: SiteCheckDeps) =>
  defineTask(JOBS.go_live, async ({ listing_id }, helpers) => {
    await goLive(deps.sql, deps.fetcher, listing_id, helpers.job.attempts >= helpers.job.max_attempts);
  });
