import { deleteExpiredRecords } from '../../sql/queries/expiry.ts';
import { JOBS } from '../../core/jobs/index.ts';
import { defineTask, type TaskDeps } from './task.ts';

/** expire_records (hourly): clean-up of expired idempotency keys, sign-in links, sessions, codes and tokens. */
export const expireRecords = (deps: TaskDeps) =>
  defineTask(JOBS.expire_records, async (_payload, helpers) => {
    const deleted = await deleteExpiredRecords(deps.sql);
    // Yesterday's visitor hashes are forgotten with their salt (see count_listing_click).
    await deps.sql`select forget_stats_visitors()`;
    helpers.logger.debug(`expired records deleted: ${JSON.stringify(deleted)}`);
  });
