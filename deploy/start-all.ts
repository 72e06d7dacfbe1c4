import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig } from '../core/config.ts';
import { prepareDatabase } from '../core/database.ts';
import { seedDemo } from '../seeds/demo.ts';
import { onStopSignal } from '../core/shutdown.ts';

/**
 * `npm start`: the whole service on one machine. Starts the database (embedded unless
 * DATABASE_URL is set), migrates, seeds an empty database with demo data, then runs the edge and
 * the worker as two processes, as they run in production. Ctrl-C stops all of it.
 */
const config = loadConfig(process.env);
const db = await prepareDatabase(config, {
  connections: 2,
  async seed(sql, site) {
    const [{ empty }] = await sql<{ empty: boolean }[]>`
      select not exists (select 1 from listings) and not exists (select 1 from categories) as empty`;
    if (!empty || !config.seedOnEmpty) return;
    const t = Date.now();
    const seeded = await seedDemo(sql, site.id);
    console.log(`seeded demo data: ${seeded.listings} listings, ${seeded.categories} categories in ${Date.now() - t} ms`);
  },
});
await db.sql.end();

const root = join(import.meta.dirname, '..');
const env = { ...process.env, DATABASE_URL: db.url };
const children: ChildProcess[] = [];
let stopping = false;

function launch(name: string, entry: string) {
  const child = spawn(process.execPath, [join(root, entry)], { env, stdio: 'inherit' });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${name} exited (${signal ?? code}); stopping everything`);
      void shutdown(1);
    }
  });
  children.push(child);
}

async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  await Promise.all(children.map((c) => new Promise<void>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    c.once('exit', () => resolve());
    c.kill('SIGTERM');
    setTimeout(() => { c.kill('SIGKILL'); }, 10_000).unref();
  })));
  await db.stop();
  process.exit(code);
}

onStopSignal(() => shutdown(0));
launch('edge', 'api/main.ts');
launch('worker', 'pipeline/main.ts');
console.log(`directory starting at ${config.siteUrl} (docs ${config.siteUrl}/docs, MCP ${config.siteUrl}/mcp)`);
