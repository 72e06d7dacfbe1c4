import type { Task } from 'graphile-worker';

/** Recomputes leaderboards, launch rankings, counters and the search dictionary. */
export const refreshViews: Task = async (_payload, helpers) => {
  await helpers.withPgClient((client) => client.query('select refresh_directory_views()'));
};
