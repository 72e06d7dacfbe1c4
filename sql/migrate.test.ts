import { afterAll, beforeAll, expect, test } from 'bun:test';
import { freshDatabase } from '../test/db.ts';
import { migrate, workerRelease } from './migrate.ts';

// graphile-worker's schema migrations run once per release of the package: a process starting on
// a database that has them (every edge after the first start) never loads the package, which
// would cost it about 60 MB of memory for nothing.

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db.drop());

test("graphile-worker's migrations run only when this release's are not recorded, or its schema is gone", async () => {
  const runs: string[] = [];
  const count = async (url: string) => void runs.push(url);
  const release = workerRelease();
  expect(release).toMatch(/^\d+\.\d+\.\d+/);
  // The template database was migrated for real: its release is recorded.
  expect((await db.sql`select release from worker_schema_releases`).map((r) => r.release)).toEqual([release]);

  await migrate(db.sql, db.url, { runWorkerMigrations: count });
  expect(runs).toEqual([]);

  await db.sql`delete from worker_schema_releases`; // another release was installed before this one
  await migrate(db.sql, db.url, { runWorkerMigrations: count });
  expect(runs).toEqual([db.url]);
  expect((await db.sql`select release from worker_schema_releases`).map((r) => r.release)).toEqual([release]);

  await db.sql`drop schema graphile_worker cascade`; // the schema was dropped by hand
  await migrate(db.sql, db.url, { runWorkerMigrations: count });
  expect(runs).toEqual([db.url, db.url]);
});
