import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type Sql } from '../sql/db.ts';
import { startEmbeddedPostgres } from '../sql/embedded.ts';
import { migrate } from '../sql/migrate.ts';

/**
 * One PostgreSQL server per test run: TEST_DATABASE_URL when set, otherwise an embedded one in a
 * temporary directory. A migrated template database is made once; each test file clones it.
 */
interface TestServer {
  adminUrl: string;
  template: string;
  stop(): Promise<void>;
  counter: number;
}

const state = globalThis as { __testPg?: Promise<TestServer> };

const withDb = (url: string, db: string) => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};

async function boot(): Promise<TestServer> {
  const external = process.env.TEST_DATABASE_URL;
  let adminUrl: string;
  let stopServer = async () => {};
  if (external) {
    adminUrl = external;
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'directory-test-pg-'));
    const port = 20000 + Math.floor(Math.random() * 20000);
    const pg = await startEmbeddedPostgres(dir, port, 'postgres_admin', { durable: false });
    adminUrl = pg.url;
    stopServer = async () => {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const template = `dir_tpl_${process.pid}`;
  const admin = connect(adminUrl, { max: 1 });
  await admin.unsafe(`drop database if exists ${template}`);
  await admin.unsafe(`create database ${template}`);
  const tpl = connect(withDb(adminUrl, template), { max: 1 });
  await migrate(tpl, withDb(adminUrl, template));
  await tpl.end();
  await admin.end();
  return { adminUrl, template, counter: 0, stop: stopServer };
}

export function testServer(): Promise<TestServer> {
  return (state.__testPg ??= boot());
}

/** A fresh database cloned from the migrated template; dropped by the returned drop(). */
export async function freshDatabase(): Promise<{ url: string; sql: Sql; drop(): Promise<void> }> {
  const server = await testServer();
  const name = `dir_t_${process.pid}_${++server.counter}_${Math.floor(Math.random() * 1e6)}`;
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

export async function stopTestServer() {
  if (!state.__testPg) return;
  const s = await state.__testPg;
  if (process.env.TEST_DATABASE_URL) {
    const admin = connect(s.adminUrl, { max: 1 });
    const dbs = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${`dir_%_${process.pid}%`}`;
    for (const d of dbs) await admin.unsafe(`drop database if exists ${d.datname} with (force)`);
    await admin.end();
  }
  await s.stop();
}
