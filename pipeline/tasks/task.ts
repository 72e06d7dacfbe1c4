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
 * A payload that does not match its job (wrong type, unknown field, another version) will not
 * match on a retry either: the job is failed permanently at once instead of being retried with
 * backoff up to its max_attempts. graphile-worker 0.18 has no public call for that from inside a
 * running job (permanently_fail_jobs skips locked jobs), so its own row is given max_attempts =
 * attempts before the error is thrown: graphile-worker then records the error as the job's
 * last_error and leaves it as a permanently failed job for operators to inspect. This is
 * graphile-worker's bookkeeping, so it goes through graphile-worker's own client.
 */
async function failPermanently(helpers: JobHelpers, error: PayloadError): Promise<never> {
  const { job } = helpers;
  helpers.logger.error(`${error.message}; job ${job.id} (${job.task_identifier}) fails permanently without retries`, { payloadError: true, jobId: job.id });
  await helpers.withPgClient((client) =>
    client.query('update graphile_worker._private_jobs set max_attempts = attempts where id = $1 and locked_at is not null', [job.id]),
  );
  job.max_attempts = job.attempts; // so graphile-worker's own log line and job:failed event agree with the row
  throw error;
}

/** A graphile-worker Task for `job` that runs `body` with the validated payload. */
export function defineTask<P extends TProperties>(job: JobDefinition<P>, body: TaskBody<P>): Task {
  return async (raw, helpers) => {
    let payload: Static<TObject<P>>;
    try {
      payload = parsePayload(job, raw);
    } catch (error) {
      if (error instanceof PayloadError) return failPermanently(helpers, error);
      throw error;
    }
    await body(payload, helpers);
  };
}
