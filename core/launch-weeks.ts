import type { Sql } from '../sql/db.ts';
import { invalid, notFound } from './errors/index.ts';

/** A launch week: Monday to Sunday, UTC. */
export interface LaunchWeek {
  week: string;
  week_end: string;
  label: 'this' | 'next' | 'last' | null;
  is_future: boolean;
}

/** How far ahead the launch calendar reaches. */
export const MAX_WEEKS_AHEAD = 52;

/** Input pattern of a week: this, next, last or a date (its existence is checked by resolveWeek). */
export const WEEK_PATTERN = '^(this|next|last|[0-9]{4}-[0-9]{2}-[0-9]{2})$';

interface WeekRow extends LaunchWeek {
  valid: boolean;
  in_calendar: boolean;
}

/**
 * Turns this/next/last or a YYYY-MM-DD date into its week (the date snapped to its Monday), all in
 * SQL and in UTC. Throws invalid (naming `field`) for a date that does not exist, and not found for
 * a week before the site's first launch week or more than MAX_WEEKS_AHEAD weeks ahead.
 */
export async function resolveWeek(sql: Sql, siteId: number, input: string, where: 'path' | 'query', field = 'week'): Promise<LaunchWeek> {
  // The casts only see a date-shaped input (CASE arms are evaluated lazily), and make_date only runs
  // on a checked year, month and day, so a bad date is reported, not raised. No capturing regexp:
  // the CTEs are inlined, so each reference to y, m or dd re-evaluates its expression.
  const [row] = await sql<WeekRow[]>`
    with parts as (
      select ${input}::text as w, ${input}::text ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' as is_date,
             date_trunc('week', now() at time zone 'utc')::date as cur
    ), ymd as (
      select w, cur, case when is_date then substr(w, 1, 4)::int end as y,
             case when is_date then substr(w, 6, 2)::int end as m,
             case when is_date then substr(w, 9, 2)::int end as dd
      from parts
    ), dim as (
      select ymd.*, case when y >= 1 and m between 1 and 12
                         then extract(day from make_date(y, m, 1) + interval '1 month' - interval '1 day')::int end as days
      from ymd
    ), resolved as (
      select cur, case w when 'this' then cur when 'next' then cur + 7 when 'last' then cur - 7
                      else case when dd between 1 and days
                                then date_trunc('week', make_date(y, m, dd)::timestamp)::date end end as monday
      from dim
    )
    select r.monday is not null as valid,
           to_char(r.monday, 'YYYY-MM-DD') as week,
           to_char(r.monday + 6, 'YYYY-MM-DD') as week_end,
           case r.monday - r.cur when 0 then 'this' when 7 then 'next' when -7 then 'last' end as label,
           coalesce(r.monday > r.cur, false) as is_future,
           coalesce(r.monday >= s.first_launch_week and r.monday <= r.cur + 7 * ${MAX_WEEKS_AHEAD}, false) as in_calendar
    from resolved r cross join sites s where s.id = ${siteId}`;
  if (!row) throw notFound('This site has no launch calendar.');
  if (!row.valid) {
    const issue = { field, in: where, message: 'is not a real date (YYYY-MM-DD)' };
    throw invalid(`Invalid input: ${field} ${issue.message}`, [issue]);
  }
  if (!row.in_calendar) {
    throw notFound(
      `No launch week ${row.week}: the calendar runs from the site's first launch week to ${MAX_WEEKS_AHEAD} weeks ahead.`,
      'week_not_in_calendar',
    );
  }
  return { week: row.week, week_end: row.week_end, label: row.label, is_future: row.is_future };
}
