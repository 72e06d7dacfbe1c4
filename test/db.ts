import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type Sql } from '../sql/db.ts';
import { type EmbeddedDb, startEmbeddedPostgres } from '../sql/embedded.ts';
import { migrate } from '../sql/migrate.ts';

/**
 * One PostgreSQL server per test run: TEST_DATABASE_URL when set, otherwise an embedded one in a
 * temporary directory. A migrated template database is made once; each test file clones it.
 *
 * `npm test` (test/run.ts) runs bun test's files in worker processes, one file at a time each, and
 * gives each worker a server of its own (TEST_RUN_DATABASES), started and migrated by test/run.ts:
 * so a server, like the one of a serial run, serves one file at a time, and a file's cluster-wide
 * traffic (transaction ids, commits, autovacuum) is its own. A worker never starts or stops a
 * server: bun ends it without a hook to stop one in. A plain `bun test` (no workers) starts its
 * server on first use and stops it in test/setup.ts.
 */
export interface TestServer {
  adminUrl: string;
  template: string;
  counter: number;
  stop(): Promise<void>;
}

const state = globalThis as { __testPg?: Promise<TestServer> };

const withDb = (url: string, db: string) => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};

/** Starts the run's server (or takes TEST_DATABASE_URL's) and migrates its template; stop() drops what the run made. */
export async function startTestServer(): Promise<TestServer> {
  const external = process.env.TEST_DATABASE_URL;
  let adminUrl: string;
  let stopServer = async () => {};
  if (external) {
    adminUrl = external;
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'directory-test-pg-'));
    // Below the kernel's ephemeral ports (32768 and up), which client connections take; a port
    // another server holds (a worker's sibling, another run) fails the start, so it tries again.
    let pg: EmbeddedDb | undefined;
    for (let attempt = 1; !pg; attempt++) {
      const port = 20000 + Math.floor(Math.random() * 12000);
      pg = await startEmbeddedPostgres(dir, port, 'postgres_admin', { durable: false }).catch((err) => {
        if (attempt >= 3) throw err;
        return undefined;
      });
    }
    adminUrl = pg.url;
    stopServer = async () => {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  // Clones are named after the template (cloneName), so one pattern finds all of a run's databases.
  const template = `dir_${process.pid}`;
  const admin = connect(adminUrl, { max: 1 });
  await admin.unsafe(`drop database if exists ${template}`);
  await admin.unsafe(`create database ${template}`);
  const tpl = connect(withDb(adminUrl, template), { max: 1 });
  await migrate(tpl, withDb(adminUrl, template));
  await tpl.end();
  await admin.end();
  return {
    adminUrl,
    template,
    counter: 0,
    async stop() {
      if (external) {
        const a = connect(adminUrl, { max: 1 });
        const dbs = await a<{ datname: string }[]>`select datname from pg_database where datname = ${template} or datname like ${`${template}\\_%`}`;
        for (const d of dbs) await a.unsafe(`drop database if exists ${d.datname} with (force)`);
        await a.end();
      }
      await stopServer();
    },
  };
}

/** What test/run.ts hands its workers: one server per worker (all the same with TEST_DATABASE_URL). */
export type RunDatabases = { adminUrl: string; template: string }[];

function boot(): Promise<TestServer> {
  const run = process.env.TEST_RUN_DATABASES;
  if (run) {
    const servers = JSON.parse(run) as RunDatabases;
    const mine = servers[(Number(process.env.BUN_TEST_WORKER_ID ?? 1) - 1) % servers.length];
    return Promise.resolve({ ...mine, counter: 0, stop: async () => {} });
  }
  if (process.env.BUN_TEST_WORKER_ID) {
    throw new Error('bun test --parallel needs the database servers of test/run.ts: run `npm test` (or `bun test/run.ts --parallel=2 ...`).');
  }
  return startTestServer();
}

export function testServer(): Promise<TestServer> {
  return (state.__testPg ??= boot());
}

const cloneName = (server: TestServer) => `${server.template}_${process.pid}_${++server.counter}_${Math.floor(Math.random() * 1e6)}`;

/** A fresh database cloned from the migrated template; dropped by the returned drop(). */
export async function freshDatabase(): Promise<{ url: string; sql: Sql; drop(): Promise<void> }> {
  const server = await testServer();
  const name = cloneName(server);
  const admin = connect(server.adminUrl, { max: 1 });
  await admin.unsafe(`create database ${name} template ${server.template}`);
  await admin.end();
  const url = withDb(server.adminUrl, name);
  const sql = connect(url, { max: 5 });
  return {
    url,
    sql,
    async drop() {
      await sql.end({ timeout: 5 });
      const a = connect(server.adminUrl, { max: 1 });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/** Stops the server this process started, if any (a worker's belongs to test/run.ts). */
export async function stopTestServer() {
  if (!state.__testPg) return;
  const s = await state.__testPg;
  await s.stop();
}
