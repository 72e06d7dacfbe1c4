import type { Task } from 'graphile-worker';
import { JOBS, parsePayload } from '../../core/jobs/index.ts';
import { notifyFollowers } from '../../core/listings/updates.ts';
import type { Sql } from '../../sql/db.ts';

/** notify_followers {update_id}: mails each follower about one update, once (safe to run again). */
export const notifyFollowersTask = (sql: Sql, siteUrl: string): Task => async (payload) => {
  const { update_id } = parsePayload(JOBS.notify_followers, payload);
  await notifyFollowers(sql, update_id, { url: siteUrl });
};
