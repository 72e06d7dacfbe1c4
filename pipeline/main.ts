import pino from 'pino';
import { loadConfig } from '../core/config.ts';
import { prepareDatabase } from '../core/database.ts';
import { pendingMigrations } from '../sql/migrate.ts';
import { startWorker } from './worker.ts';
import { onStopSignal } from '../core/shutdown.ts';
import { enqueue, JOBS } from '../core/jobs/index.ts';
import { graphileLogger } from './observability/log.ts';
import { startHealthServer } from './observability/health-server.ts';
import { workerMetrics } from './observability/worker-metrics.ts';

// The worker alone (production split). `npm start` runs it beside the edge.
const config = loadConfig(process.env);
const log = pino({ level: config.logLevel, base: { svc: 'worker' } });
const db = await prepareDatabase(config, { site: false, connections: 2 });
const sql = db.sql;
const runner = await startWorker(config, db.url, { logger: graphileLogger(log) });
// Awards for weeks that finished while nothing ran; a no-op when they exist.
await enqueue(sql, JOBS.award_weeks, {});

const metrics = workerMetrics(sql);
metrics.observe(runner.events);
const health =
  config.workerHealthPort === null
    ? null
    : await startHealthServer({
        port: config.workerHealthPort,
        registry: metrics.registry,
        checks: [
          {
            name: 'database',
            check: async () => {
              await sql`select 1`;
            },
          },
          {
            name: 'migrations',
            check: async () => {
              const missing = await pendingMigrations(sql);
              if (missing.length) throw new Error(`not applied: ${missing.join(', ')}`);
            },
          },
        ],
      });
if (health) log.info({ port: config.workerHealthPort }, 'worker health and metrics listening');

onStopSignal(async () => {
  // Running jobs finish first (graphile-worker's graceful stop), then the probes go.
  await runner.stop();
  health?.close();
  await db.stop();
  process.exit(0);
});
await runner.promise;
