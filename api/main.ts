import { loadConfig } from '../core/config.ts';
import { resolveDatabase } from '../core/database.ts';
import { connect } from '../sql/db.ts';
import { migrate } from '../sql/migrate.ts';
import { startEdge } from './server.ts';
import { onStopSignal } from '../core/shutdown.ts';

// The edge alone (production split). Migrations are advisory-locked, so every instance may run them.
const config = loadConfig(process.env);
const db = await resolveDatabase(config);
const sql = connect(db.url, { max: 1 });
await migrate(sql, db.url);
await sql.end();
const edge = await startEdge(config, db.url);
console.log(`edge listening on ${config.siteUrl} (port ${edge.port})`);

onStopSignal(async () => {
  await edge.stop();
  await db.stop();
  process.exit(0);
});
