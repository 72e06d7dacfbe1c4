import { loadConfig } from '../core/config.ts';
import { prepareDatabase } from '../core/database.ts';
import { startEdge } from './server.ts';
import { onStopSignal } from '../core/shutdown.ts';

// The edge alone (production split). Migrations are advisory-locked, so every instance may run them.
const config = loadConfig(process.env);
const db = await prepareDatabase(config);
await db.sql.end();
const edge = await startEdge(config, db.url);
console.log(`edge listening on ${config.siteUrl} (port ${edge.port})`);

onStopSignal(async () => {
  await edge.stop();
  await db.stop();
  process.exit(0);
});
