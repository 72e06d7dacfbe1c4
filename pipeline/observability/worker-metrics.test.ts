// The worker's metrics over a real worker run: a job whose payload is refused is counted as
// set_aside (graphile-worker itself reports it as a success), and the dead letters it leaves are a
// gauge read from the table when scraped.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { EventEmitter } from 'node:events';
import { Logger, type WorkerEvents } from 'graphile-worker';
import { enqueue, JOBS } from '../../core/jobs/index.ts';
import { freshDatabase } from '../../test/db.ts';
import { runJobs } from '../../test/jobs.ts';
import { defineTask } from '../tasks/task.ts';
import { workerMetrics } from './worker-metrics.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db.drop());

const logger = new Logger(() => () => {});
const sent: number[] = [];
const sendMail = defineTask(JOBS.send_mail, async ({ id }) => {
  sent.push(id);
});

test('a refused payload counts as set_aside, not success, and shows in the dead-letter gauge', async () => {
  const metrics = workerMetrics(db.sql);
  const events = new EventEmitter() as WorkerEvents;
  metrics.observe(events);
  await db.sql`select graphile_worker.add_job('send_mail', '{"id":"not-a-number","v":1}'::json, max_attempts => 25)`;
  await enqueue(db.sql, JOBS.send_mail, { id: 7 });
  await runJobs({ connectionString: db.url, taskList: { [JOBS.send_mail.name]: sendMail }, events, logger });
  expect(sent).toEqual([7]);

  const text = await metrics.registry.metrics();
  expect(text).toMatch(/^directory_jobs_total\{task="send_mail",outcome="set_aside"\} 1$/m);
  expect(text).toMatch(/^directory_jobs_total\{task="send_mail",outcome="success"\} 1$/m);
  expect(text).toMatch(/^directory_job_duration_seconds_count\{task="send_mail",outcome="set_aside"\} 1$/m);
  expect(text).toMatch(/^directory_job_dead_letters\{task="send_mail"\} 1$/m);
  expect(text).toContain('# HELP directory_jobs_total Jobs run, by task and outcome (success, set_aside:');

  // Read at scrape time: a dead letter gone (requeued or discarded) leaves the gauge.
  await db.sql`delete from job_dead_letters`;
  await db.sql`insert into job_dead_letters (job_id, task, payload, error, attempts) values (-1, 'go_live', '{}', 'test', 1), (-2, 'go_live', '{}', 'test', 1)`;
  const later = await metrics.registry.metrics();
  expect(later).not.toMatch(/^directory_job_dead_letters\{task="send_mail"\}/m);
  expect(later).toMatch(/^directory_job_dead_letters\{task="go_live"\} 2$/m);
});
