import { loadConfig } from '../core/config.ts';
import { resolveDatabase } from '../core/database.ts';
import { connect } from '../sql/db.ts';
import { migrate } from '../sql/migrate.ts';
import { startWorker } from './worker.ts';
import { onStopSignal } from '../core/shutdown.ts';
import { enqueue, JOBS } from '../core/jobs/index.ts';

// The worker alone (production split). `npm start` runs it beside the edge.
const config = loadConfig(process.env);
const db = await resolveDatabase(config);
const sql = connect(db.url, { max: 1 });
await migrate(sql, db.url);
// Awards for weeks that finished while nothing ran; a no-op when they exist.
await enqueue(sql, JOBS.award_weeks, {});
await sql.end();
const runner = await startWorker(config, db.url);

onStopSignal(async () => {
  await runner.stop();
  await db.stop();
  process.exit(0);
});
await runner.promise;
