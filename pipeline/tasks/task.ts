// The one way a task is written: defineTask(JOBS.x, async (payload, helpers) => ...) turns a job
// of the catalogue (core/jobs) into a graphile-worker Task that only ever sees a payload checked
// against the job's schema and version.
import type { JobHelpers, Task } from 'graphile-worker';
import type { Static, TObject, TProperties } from '@sinclair/typebox';
import { parsePayload, PayloadError, type JobDefinition } from '../../core/jobs/index.ts';
import type { Sql } from '../../sql/db.ts';

/** What every task module's factory takes at least: the worker's postgres.js pool (tasks query through it, never graphile-worker's client). */
export interface TaskDeps {
  sql: Sql;
}

export type TaskBody<P extends TProperties> = (payload: Static<TObject<P>>, helpers: JobHelpers) => Promise<void>;

/**
 * The jobs of this process set aside (see setAside), for the metrics: they end through
 * graphile-worker's job:success like any task that returns, and are counted as set_aside instead.
 * graphile-worker (0.18, worker.js) hands one object to makeJobHelpers as helpers.job and to every
 * job:* event of that run, so the helpers' job is the key the event listener looks up. Weak: a
 * finished job's object is let go with everything else.
 */
export const setAsideJobs = new WeakSet<object>();

/**
 * A payload that does not match its job (wrong type, unknown field, another version) will not
 * match on a retry either. It is set aside in job_dead_letters (the task, the payload as queued,
 * why) and the job then ends as completed, so graphile-worker never retries it, through nothing
 * but its front door: a task that returns completes its job. (Its permanently_fail_jobs skips the
 * locked job that is running, and its tables are its own.) Recorded once: a job delivered again
 * after a crash finds its row there already. Written through graphile-worker's client, the one
 * defineTask has: it is the running job's own bookkeeping, not a task's work.
 */
async function setAside(helpers: JobHelpers, raw: unknown, error: PayloadError): Promise<void> {
  const { job } = helpers;
  helpers.logger.error(`${error.message}; job ${job.id} (${job.task_identifier}) set aside in job_dead_letters, not retried`, {
    payloadError: true,
    jobId: job.id,
  });
  await helpers.query(
    `insert into job_dead_letters (job_id, task, payload, error, attempts) values ($1, $2, $3::jsonb, left($4, 2000), $5)
     on conflict (job_id) do nothing`,
    [job.id, job.task_identifier, raw === undefined ? null : JSON.stringify(raw), error.message, job.attempts],
  );
  setAsideJobs.add(job);
}

/** A graphile-worker Task for `job` that runs `body` with the validated payload. */
export function defineTask<P extends TProperties>(job: JobDefinition<P>, body: TaskBody<P>): Task {
  return async (raw, helpers) => {
    let payload: Static<TObject<P>>;
    try {
      payload = parsePayload(job, raw);
    } catch (error) {
      if (error instanceof PayloadError) return setAside(helpers, raw, error);
      throw error;
    }
    await body(payload, helpers);
  };
}
