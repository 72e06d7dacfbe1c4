import { JOBS } from '../../core/jobs/index.ts';
import { defineTask, type TaskDeps } from './task.ts';

/**
 * award_weeks: grants Launch of the Week awards for every finished week that has none yet, after
 * bringing the weekly ranking up to date (incrementally) so the awards agree with the votes. award_week is idempotent.
 */
export const awardWeeks = (deps: TaskDeps) =>
  defineTask(JOBS.award_weeks, async (_payload, helpers) => {
    const { sql } = deps;
    await sql`select refresh_listing_stats()`;
    const [{ granted }] = await sql<{ granted: number }[]>`
    select coalesce(sum(award_week(s.id, w.week::date)), 0)::int as granted
    from sites s
    cross join lateral generate_series(s.first_launch_week, date_trunc('week', now() at time zone 'utc')::date - 7, interval '7 days') as w(week)
    where not exists (select 1 from awards a where a.site_id = s.id and a.week = w.week::date)`;
    if (granted > 0) await sql`select directory_changed()`;
    helpers.logger.info(`granted ${granted} awards`);
  });
