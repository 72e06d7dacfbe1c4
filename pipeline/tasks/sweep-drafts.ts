import { JOBS } from '../../core/jobs/index.ts';
import { defineTask, type TaskDeps } from './task.ts';

/** How long a draft may stay in progress before the sweep calls it failed (the jobs take seconds to a few minutes). */
export const STUCK_AFTER_MINUTES = 15;

/**
 * sweep_drafts (every minute): the safety net behind the jobs' own failure handling. A draft,
 * comparison or redraft still in progress long after its jobs must have finished (a worker that
 * died on every attempt) ends in a visible failed state instead of hanging.
 */
export const sweepDrafts = (deps: TaskDeps) =>
  defineTask(JOBS.sweep_drafts, async (_payload, helpers) => {
    const { sql } = deps;
    const stuck = sql`now() - make_interval(mins => ${STUCK_AFTER_MINUTES})`;
    const drafts = await sql`
    update drafts set status = 'failed', failure_reason = 'timed_out', updated_at = now(),
      failure_detail = 'reading or drafting the site did not finish in time; submit the URL again'
    where status in ('crawling', 'drafting') and updated_at < ${stuck}`;
    const comparisons = await sql`
    update drafts set comparison = comparison || jsonb_build_object('status', 'failed', 'failure_reason', 'timed_out',
      'failure_detail', 'reading or comparing the competitor did not finish in time')
    where comparison->>'status' in ('crawling', 'comparing') and updated_at < ${stuck}`;
    const redrafts = await sql`
    update drafts set regenerating = '{}', regenerate_error = 'the redraft did not finish in time'
    where cardinality(regenerating) > 0 and updated_at < ${stuck}`;
    const n = drafts.count + comparisons.count + redrafts.count;
    if (n > 0) helpers.logger.warn(`sweep_drafts: ${n} drafts ended as timed out`);
  });
