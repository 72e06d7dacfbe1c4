import type { Task } from 'graphile-worker';
import { JOBS, parsePayload } from '../../core/jobs/index.ts';
import { goLive } from '../../core/listings/publishing.ts';
import type { SiteCheckDeps } from './site-check-deps.ts';

/** go_live {listing_id}: at the start of the launch week, the last badge check and the move to live (or back to draft). */
export const goLiveTask = (deps: SiteCheckDeps): Task => async (payload, helpers) => {
  const { listing_id } = parsePayload(JOBS.go_live, payload);
  await goLive(deps.sql, deps.fetcher, listing_id, helpers.job.attempts >= helpers.job.max_attempts);
};
