import { afterAll, beforeAll, expect, test } from 'bun:test';
import { Logger, parseCrontab, quickAddJob } from 'graphile-worker';
import { runJobs } from '../test/jobs.ts';
import { ensureSite } from '../sql/site.ts';
import { freshDatabase } from '../test/db.ts';
import { makeCompany, makeListing, makeUser, makeUsers, makeVote } from '../test/builders.ts';
import { cronLine, databaseTasks } from './worker.ts';
import { JOBS } from '../core/jobs/index.ts';

const logger = new Logger(() => () => {});
let db: Awaited<ReturnType<typeof freshDatabase>>;
let siteId: number;
beforeAll(async () => {
  db = await freshDatabase();
  siteId = (await ensureSite(db.sql, 'main', 'http://localhost')).id;
});
afterAll(() => db.drop());

test('award_weeks grants #1-#3 of a finished week by votes cast during that week', async () => {
  const { sql } = db;
  const c = await makeCompany(sql, { name: 'Co', domain: 'co.test' });
  const week = (await sql<{ w: Date }[]>`select (date_trunc('week', now() at time zone 'utc')::date - 14) as w`)[0].w;
  const HOUR = 3_600_000;
  const ids: number[] = [];
  for (const slug of ['alpha', 'beta', 'gamma', 'delta']) {
    const l = await makeListing(sql, { siteId, companyId: c.id, slug, domain: 'co.test', columns: { launch_week: week, launched_at: new Date(+week + HOUR) } });
    ids.push(l.id);
  }
  const users = await makeUsers(sql, 10, (g) => `u${g}@example.com`);
  // In-week votes: delta 4, gamma 3, beta 2, alpha 1. Alpha also gets 8 votes after the week, which must not count.
  const inWeek = [1, 2, 3, 4];
  for (let i = 0; i < 4; i++) {
    for (let v = 0; v < inWeek[i]; v++) {
      await makeVote(sql, ids[i], users[v].id, new Date(+week + 48 * HOUR));
    }
  }
  for (let v = 1; v < 9; v++) {
    await makeVote(sql, ids[0], users[v].id, new Date(+week + 9 * 24 * HOUR)).catch(() => {}); // user 0 already voted for alpha in-week
  }
  await quickAddJob({ connectionString: db.url }, 'award_weeks', {});
  await runJobs({ connectionString: db.url, taskList: databaseTasks(db), logger });
  const awards = await sql`select l.slug, a.rank, a.votes from awards a join listings l on l.id = a.listing_id order by a.rank`;
  expect(awards.map((a) => [a.slug, a.rank, a.votes])).toEqual([
    ['delta', 1, 4],
    ['gamma', 2, 3],
    ['beta', 3, 2],
  ]);
  // Running it again grants nothing more.
  await quickAddJob({ connectionString: db.url }, 'award_weeks', {});
  await runJobs({ connectionString: db.url, taskList: databaseTasks(db), logger });
  expect((await sql`select count(*)::int as n from awards`)[0].n).toBe(3);
});

test('refresh_views recomputes counters and announces a new cache generation', async () => {
  const { sql } = db;
  const before = Number((await sql`select last_value from cache_generation`)[0].last_value);
  await quickAddJob({ connectionString: db.url }, 'refresh_views', {});
  await runJobs({ connectionString: db.url, taskList: databaseTasks(db), logger });
  const after = Number((await sql`select last_value from cache_generation`)[0].last_value);
  expect(after).toBeGreaterThan(before);
  const [alpha] = await sql`select s.votes from listing_stats s join listings l on l.id = s.listing_id where l.slug = 'alpha'`;
  expect(alpha.votes).toBe(9);
});

test('votes years old do not break the refresh (trending decay is clamped)', async () => {
  const { sql } = db;
  const u = await makeUser(sql, { email: 'old@example.com' });
  const [l] = await sql`select id from listings where slug = 'gamma'`;
  await sql`insert into votes (listing_id, user_id, created_at) values (${l.id}, ${u.id}, now() - interval '20 years')`;
  await sql`select refresh_directory_views()`;
  const [s] = await sql`select votes, trending_now(trend_log) as trending from listing_stats where listing_id = ${l.id}`;
  expect(s.votes).toBe(4);
  expect(s.trending).toBeGreaterThan(0);
});

test('cron lines take the job name, attempts, key and payload version from the catalogue', () => {
  const line = cronLine('5 0 * * 1', JOBS.award_weeks, 'fill=1w');
  expect(line).toBe('5 0 * * 1 award_weeks ?max=3&jobKey=award_weeks&jobKeyMode=replace&fill=1w {"v":1}');
  const [item] = parseCrontab(line);
  expect(item).toMatchObject({ task: 'award_weeks', payload: { v: 1 }, options: { maxAttempts: 3, jobKey: 'award_weeks', jobKeyMode: 'replace' } });
  expect(item.options.backfillPeriod).toBe(7 * 24 * 3600 * 1000);
});
