import { JOBS } from '../../core/jobs/index.ts';
import { notifyFollowers } from '../../core/listings/updates.ts';
import type { TaskDeps } from './task.ts';
import { defineTask } from './task.ts';

/** notify_followers {update_id}: mails each follower about one update, once (safe to run again). */
export const notifyFollowersTask = (deps: TaskDeps & { siteUrl: string }) =>
  defineTask(JOBS.notify_followers, async ({ update_id }) => {
    await notifyFollowers(deps.sql, update_id, { url: deps.siteUrl });
  });
