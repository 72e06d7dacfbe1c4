import { run, type Runner, type TaskList } from 'graphile-worker';
import type { Config } from '../sql/config.ts';
import { awardWeeks } from './tasks/award-weeks.ts';
import { refreshViews } from './tasks/refresh-views.ts';

export const taskList: TaskList = {
  refresh_views: refreshViews,
  award_weeks: awardWeeks,
};

/** The job runner: tasks plus their schedules. Later issues add tasks here. */
export function startWorker(config: Config, databaseUrl: string): Promise<Runner> {
  return run({
    connectionString: databaseUrl,
    concurrency: 4,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList,
    crontab: [
      `${config.viewRefreshCron} refresh_views ?max=1&jobKey=refresh_views&jobKeyMode=replace`,
      '5 0 * * 1 award_weeks ?max=1&fill=1w&jobKey=award_weeks',
    ].join('\n'),
  });
}
