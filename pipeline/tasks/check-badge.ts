import type { Task } from 'graphile-worker';
import { JOBS, parsePayload } from '../../core/jobs/index.ts';
import { checkBadge } from '../../core/listings/publishing.ts';
import type { SiteCheckDeps } from './site-check-deps.ts';

/** check_badge {listing_id}: one look for our badge on a queued free listing's homepage. */
export const checkBadgeTask = (deps: SiteCheckDeps): Task => async (payload) => {
  const { listing_id } = parsePayload(JOBS.check_badge, payload);
  await checkBadge(deps.sql, deps.fetcher, listing_id);
};
