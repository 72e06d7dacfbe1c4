import type { Task } from 'graphile-worker';

/**
 * Grants Launch of the Week awards for every finished week that has none yet, after refreshing
 * the weekly ranking so the awards agree with the votes. award_week is idempotent.
 */
export const awardWeeks: Task = async (_payload, helpers) => {
  await helpers.withPgClient(async (client) => {
    await client.query('refresh materialized view concurrently mv_weekly_ranking');
    const { rows } = await client.query(`
      select coalesce(sum(award_week(s.id, w.week::date)), 0)::int as granted
      from sites s
      cross join lateral generate_series(s.first_launch_week, date_trunc('week', now() at time zone 'utc')::date - 7, interval '7 days') as w(week)
      where not exists (select 1 from awards a where a.site_id = s.id and a.week = w.week::date)`);
    if (rows[0].granted > 0) await client.query('select directory_changed()');
    helpers.logger.info(`granted ${rows[0].granted} awards`);
  });
};
