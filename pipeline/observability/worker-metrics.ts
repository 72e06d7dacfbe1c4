import type { WorkerEvents } from 'graphile-worker';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Sql } from '../../sql/db.ts';
import { setAsideJobs } from '../tasks/task.ts';

/**
 * The worker's Prometheus metrics: jobs by task and outcome with durations (from graphile-worker's
 * events), and, read from the tables when scraped, how many jobs wait, how old the oldest waiting
 * one is, and how many jobs lie set aside in job_dead_letters.
 */
export function workerMetrics(sql: Sql): { registry: Registry; observe(events: WorkerEvents): void } {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'directory_worker_' });
  const jobs = new Counter({
    name: 'directory_jobs_total',
    help: 'Jobs run, by task and outcome (success, set_aside: payload refused and kept in job_dead_letters, not retried; error: will retry; failed: gave up).',
    labelNames: ['task', 'outcome'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'directory_job_duration_seconds',
    help: 'How long a job ran, by task and outcome.',
    labelNames: ['task', 'outcome'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [registry],
  });
  const started = new WeakMap<object, number>();
  const finish = (job: { task_identifier: string }, outcome: string) => {
    jobs.inc({ task: job.task_identifier, outcome });
    const t0 = started.get(job);
    if (t0 !== undefined) duration.observe({ task: job.task_identifier, outcome }, (performance.now() - t0) / 1000);
  };
  const queue = async () =>
    await sql<{ task: string; waiting: number; oldest: number | null }[]>`
    select task_identifier as task, count(*)::int as waiting, extract(epoch from now() - min(run_at))::float8 as oldest
    from graphile_worker.jobs where locked_at is null and run_at <= now() and attempts < max_attempts
    group by task_identifier`;
  new Gauge({
    name: 'directory_queue_waiting_jobs',
    help: 'Jobs due and waiting for a worker, by task.',
    labelNames: ['task'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await queue()) this.set({ task: r.task }, r.waiting);
    },
  });
  new Gauge({
    name: 'directory_job_dead_letters',
    help: 'Jobs set aside in job_dead_letters (payload refused, never retried) and not yet requeued or discarded, by task.',
    labelNames: ['task'],
    registers: [registry],
    async collect() {
      const rows = await sql<{ task: string; n: number }[]>`select task, count(*)::int as n from job_dead_letters group by task`;
      this.reset();
      for (const r of rows) this.set({ task: r.task }, r.n);
    },
  });
  new Gauge({
    name: 'directory_queue_oldest_waiting_seconds',
    help: 'Age of the oldest job due and waiting for a worker (0 when none waits).',
    registers: [registry],
    async collect() {
      this.set(Math.max(0, ...(await queue()).map((r) => r.oldest ?? 0)));
    },
  });
  return {
    registry,
    observe(events) {
      events.on('job:start', ({ job }) => {
        started.set(job, performance.now());
      });
      // A set-aside job returned from its task, so graphile-worker reports it as a success.
      events.on('job:success', ({ job }) => finish(job, setAsideJobs.has(job) ? 'set_aside' : 'success'));
      events.on('job:error', ({ job }) => {
        if (job.attempts < job.max_attempts) finish(job, 'error');
      });
      events.on('job:failed', ({ job }) => finish(job, 'failed'));
    },
  };
}
