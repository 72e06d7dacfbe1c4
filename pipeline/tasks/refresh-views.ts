import { JOBS } from '../../core/jobs/index.ts';
import { defineTask, type TaskDeps } from './task.ts';

/** refresh_views: recomputes leaderboards, launch rankings, counters and the search dictionary. */
export const refreshViews = (deps: TaskDeps) =>
  defineTask(JOBS.refresh_views, async () => {
    await deps.sql`select refresh_directory_views()`;
  });
