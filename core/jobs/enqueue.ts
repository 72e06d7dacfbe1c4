import type { Static, TObject, TProperties } from '@sinclair/typebox';
import type { Sql } from '../../sql/db.ts';
import { parsePayload, type JobDefinition } from './define.ts';

export interface EnqueueOptions {
  /** Run no earlier than this. */
  runAt?: Date;
  /** Overrides the job's own key (e.g. a batch id in it). */
  key?: string;
  /** Overrides the job's own priority (lower first): BACKGROUND where nobody waits on this one. */
  priority?: number;
}

/**
 * Adds a job inside the caller's transaction (pass the transaction as `sql`): the job exists
 * exactly when the change that caused it commits. The payload is checked against the job's
 * schema first, so a bad payload is a bug found at the caller, not a job failing later.
 */
export async function enqueue<P extends TProperties>(sql: Sql, job: JobDefinition<P>, payload: Static<TObject<P>>, opts: EnqueueOptions = {}): Promise<void> {
  parsePayload(job, payload);
  const key = opts.key ?? job.key?.(payload) ?? null;
  const queue = job.queue?.(payload) ?? null;
  const body = { ...(payload as object), v: job.version };
  await sql`select graphile_worker.add_job(
    ${job.name}, ${sql.json(body as never)}::json,
    queue_name => ${queue}, run_at => ${opts.runAt ?? null}::timestamptz, max_attempts => ${job.maxAttempts}, job_key => ${key},
    priority => ${opts.priority ?? job.priority ?? 0})`;
}
