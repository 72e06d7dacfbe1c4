// Running queued jobs in a test and reading their rows afterwards.
import { runOnce, type RunnerOptions } from 'graphile-worker';
import { eventually } from './eventually.ts';
import { connect } from '../sql/db.ts';

/**
 * graphile-worker's runOnce (0.18) can resolve before the last job's completion or failure is
 * written: the worker does not await that write. A test that then reads graphile_worker.jobs (or
 * moves a retry's run_at forward) could see the job still locked and its failure not yet
 * recorded. This runs the due jobs, then waits (bounded) until no job is locked any more.
 */
export async function runJobs(options: RunnerOptions & { connectionString: string }): Promise<void> {
  await runOnce(options);
  const sql = connect(options.connectionString, { max: 1 });
  try {
    const locked = await eventually(
      async () => (await sql<{ n: number }[]>`select count(*)::int as n from graphile_worker.jobs where locked_at is not null`)[0]!.n,
      (n) => n === 0,
      { tries: 400, everyMs: 25 },
    );
    if (locked !== 0) throw new Error('a job is still locked 10 s after runOnce returned');
  } finally {
    await sql.end();
  }
}
