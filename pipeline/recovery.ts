import type { Config } from '../core/config.ts';
import { failDraft } from '../core/drafts/store.ts';
import type { Sql } from '../sql/db.ts';

/**
 * Jobs of a killed worker. graphile-worker marks a job taken with locked_at/locked_by and clears
 * them when the job ends; a worker process that dies (SIGKILL, OOM, a lost machine) never clears
 * them, and graphile-worker itself only frees such jobs after 4 hours. For the submission jobs,
 * whose running time is capped (crawls 30 s, the extractive drafter seconds, the LLM drafter its
 * timeout), a job still locked well past its cap belongs to a dead worker: this sweep frees the
 * jobs of those workers (graphile_worker.force_unlock_workers), so another worker retries them at
 * once. A job that was already on its last attempt cannot run again: its draft is failed with a
 * reason instead of waiting for the 15-minute sweep.
 *
 * Every worker process runs the sweep at start and every RECOVERY_EVERY_MS; running it twice at
 * once is harmless (both updates are idempotent).
 */
export const RECOVERY_EVERY_MS = 15_000;

/** Seconds after which a locked job of each task belongs to a dead worker. */
export function recoveryHorizons(config: Config): Record<string, number> {
  const base = config.jobRecoverySeconds;
  const drafting = config.drafter.kind === 'llm' ? Math.max(base, Math.ceil((2 * config.drafter.timeoutMs) / 1000) + 30) : base;
  // recrawl_listing crawls and drafts in one job (also run by `ops recrawl`, which an operator may stop with Ctrl-C).
  return { crawl_draft: base, crawl_competitor: base, draft_profile: drafting, regenerate_draft: drafting, compare_draft: drafting, recrawl_listing: drafting };
}

const GAVE_UP: Record<string, { reason: string; detail: string }> = {
  crawl_draft: { reason: 'crawl_error', detail: 'the worker reading the site stopped on every attempt; submit the URL again' },
  draft_profile: { reason: 'draft_error', detail: 'the worker drafting the profile stopped on every attempt; submit the URL again' },
};

export interface Recovered {
  unlocked: number;
  workers: string[];
  failedDrafts: number;
}

/** The draft a submission job works on, from its key (core/jobs/catalogue.ts: `task:draft_id`). */
const draftOfKey = (task: string, key: string | null) => (key?.startsWith(`${task}:`) ? key.slice(task.length + 1) : null);

export async function recoverStaleJobs(sql: Sql, horizons: Record<string, number>): Promise<Recovered> {
  const tasks = Object.keys(horizons);
  const seconds = tasks.map((t) => horizons[t]!);
  // graphile_worker.jobs is the worker's public view of its jobs (no payload: a draft is named by
  // the job's key, which the catalogue makes from the payload's draft_id).
  const stale = await sql<{ id: string; task: string; key: string | null; locked_by: string; attempts: number; max_attempts: number }[]>`
    select j.id::text, j.task_identifier as task, j.key, j.locked_by, j.attempts, j.max_attempts
    from graphile_worker.jobs j
    join unnest(${tasks}::text[], ${seconds}::int[]) as h(task, secs) on h.task = j.task_identifier
    where j.locked_at is not null and j.locked_at < now() - make_interval(secs => h.secs)`;
  if (stale.length === 0) return { unlocked: 0, workers: [], failedDrafts: 0 };
  const workers = [...new Set(stale.map((j) => j.locked_by))];
  await sql`select graphile_worker.force_unlock_workers(${workers}::text[])`;
  let failedDrafts = 0;
  for (const j of stale) {
    const gaveUp = GAVE_UP[j.task];
    const draftId = draftOfKey(j.task, j.key);
    if (j.attempts >= j.max_attempts && gaveUp && draftId) {
      if (await failDraft(sql, draftId, gaveUp.reason, gaveUp.detail)) failedDrafts++;
    }
  }
  return { unlocked: stale.length, workers, failedDrafts };
}
