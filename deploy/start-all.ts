import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig } from '../core/config.ts';
import { prepareDatabase, resolveDatabase, type ResolvedDatabase } from '../core/database.ts';
import { connect } from '../sql/db.ts';
import { seedDemo } from '../seeds/demo.ts';
import { onStopSignal } from '../core/shutdown.ts';
import { RestartPolicy } from './supervisor.ts';
import { EDGE_RUNTIME_ENV, WORKER_RUNTIME_ENV } from './runtime-env.ts';

/**
 * `npm start`: the whole service on one machine. Starts the database (embedded unless
 * DATABASE_URL is set), migrates, seeds an empty database with demo data, then runs the edge and
 * the worker as two processes, as they run in production, and supervises all three:
 *
 * - a child that exits is logged and restarted after a back-off (1 s doubling to 30 s); the
 *   other keeps running (the edge answers 503s by itself while the database is away);
 * - the embedded PostgreSQL is watched (its process, and `select 1` every 2 s): when it dies, or
 *   stops answering three times running, it is (killed and) started again on the same data;
 * - a crash loop (SUPERVISE_MAX_CRASHES crashes within SUPERVISE_WINDOW_SECONDS, all counted
 *   together) stops everything with a message and exit code 1;
 * - Ctrl-C stops the children (SIGTERM, SIGKILL after 10 s), then the database, exit code 0.
 */
const config = loadConfig(process.env);
const prepared = await prepareDatabase(config, {
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
await prepared.sql.end();
let db: ResolvedDatabase = prepared;

const root = join(import.meta.dirname, '..');
const env = { ...process.env, DATABASE_URL: db.url };
const children = new Map<string, ChildProcess>();
const policy = new RestartPolicy({ maxCrashes: config.supervise.maxCrashes, windowMs: config.supervise.windowMs });
let stopping = false;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function giveUp(what: string) {
  console.error(
    `npm start: ${what}; that is ${policy.recentCrashes} crashes within ${config.supervise.windowMs / 1000} s, a crash loop: stopping everything. See the messages above for the cause.`,
  );
  void shutdown(1);
}

function launch(name: string, entry: string, extraEnv: Record<string, string> = {}) {
  if (stopping) return;
  const child = spawn(process.execPath, [join(root, entry)], { env: { ...env, ...extraEnv }, stdio: 'inherit' });
  children.set(name, child);
  policy.started(name);
  console.log(`${name} started (pid ${child.pid})`);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    const delay = policy.crashed(name);
    if (delay === null) return giveUp(`${name} exited (${signal ?? `code ${code}`})`);
    console.error(`${name} exited (${signal ?? `code ${code}`}); restarting it in ${delay / 1000} s`);
    setTimeout(() => launch(name, entry, extraEnv), delay);
  });
}

/** Watches the embedded PostgreSQL and starts it again when it dies or stops answering. */
async function superviseDatabase() {
  if (!db.exited) return; // DATABASE_URL: not ours to restart; the edge and worker ride out its outages
  let probe = connect(db.url, { max: 1, connectTimeoutMs: 2000 });
  let silent = 0;
  policy.started('database');
  while (!stopping) {
    const exited = db.exited ?? new Promise<void>(() => {});
    const died = await Promise.race([exited.then(() => true), sleep(2000).then(() => false)]);
    if (stopping) break;
    if (!died) {
      const ok = await Promise.race([
        probe`select 1`.then(
          () => true,
          () => false,
        ),
        sleep(3000).then(() => false),
      ]);
      silent = ok ? 0 : silent + 1;
      if (silent < 3) continue;
      console.error(`the embedded PostgreSQL (pid ${db.pid}) has not answered for three checks; killing it to start it again`);
      try {
        if (db.pid) process.kill(db.pid, 'SIGKILL');
      } catch {
        /* gone already */
      }
      await exited;
    }
    silent = 0;
    let delay = policy.crashed('database');
    if (delay === null) return giveUp(`the embedded PostgreSQL died (pid ${db.pid})`);
    console.error(`the embedded PostgreSQL died (pid ${db.pid}); starting it again in ${delay / 1000} s`);
    for (;;) {
      await sleep(delay);
      if (stopping) return;
      try {
        db = await resolveDatabase(config);
        break;
      } catch (err) {
        // Backends of a killed postmaster may hold its shared memory for a moment: try again.
        delay = policy.crashed('database');
        if (delay === null) return giveUp(`the embedded PostgreSQL could not be started again: ${err instanceof Error ? err.message : String(err)}`);
        console.error(
          `the embedded PostgreSQL did not start (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); trying again in ${delay / 1000} s`,
        );
      }
    }
    policy.started('database');
    console.log(`the embedded PostgreSQL is running again (pid ${db.pid}); the edge and the worker reconnect by themselves`);
    await probe.end({ timeout: 1 }).catch(() => {});
    probe = connect(db.url, { max: 1, connectTimeoutMs: 2000 });
  }
  await probe.end({ timeout: 1 }).catch(() => {});
}

async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  await Promise.all(
    [...children.values()].map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill('SIGTERM');
          setTimeout(() => {
            c.kill('SIGKILL');
          }, 10_000).unref();
        }),
    ),
  );
  await db.stop();
  process.exit(code);
}

onStopSignal(() => shutdown(0));
launch('edge', 'api/main.ts', EDGE_RUNTIME_ENV);
launch('worker', 'pipeline/main.ts', WORKER_RUNTIME_ENV);
void superviseDatabase();
console.log(`directory starting at ${config.siteUrl} (docs ${config.siteUrl}/docs, MCP ${config.siteUrl}/mcp)`);
