import { loadConfig } from '../core/config.ts';
import { prepareDatabase } from '../core/database.ts';
import { startWorker } from './worker.ts';
import { onStopSignal } from '../core/shutdown.ts';

// The worker alone (production split). `npm start` runs it beside the edge.
const config = loadConfig(process.env);
const db = await prepareDatabase(config, { site: false });
await db.sql.end();
const runner = await startWorker(config, db.url);
// Awards for weeks that finished while nothing ran; a no-op when they exist.
await runner.addJob('award_weeks', {}, { jobKey: 'award_weeks' });

onStopSignal(async () => {
  await runner.stop();
  await db.stop();
  process.exit(0);
});
await runner.promise;
