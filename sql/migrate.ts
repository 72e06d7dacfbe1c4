import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Logger, runMigrations } from 'graphile-worker';
import type { Sql } from './db.ts';

const dir = join(import.meta.dirname, 'migrations');
const LOCK = 7_301_911; // advisory lock key for migrations

const quiet = new Logger(() => () => {});

const migrationFiles = () =>
  readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort();

/** Migrations this code has that the database has not applied (readiness: a new image on an old schema is not ready). */
export async function pendingMigrations(sql: Sql): Promise<string[]> {
  const [{ present }] = await sql`select to_regclass('schema_migrations') is not null as present`;
  const done = present ? new Set((await sql`select name from schema_migrations`).map((r) => r.name as string)) : new Set<string>();
  return migrationFiles().filter((f) => !done.has(f));
}

/**
 * Applies pending migrations, each in its own transaction, under an advisory lock, then installs
 * graphile-worker's schema (its own migrations, its own lock): the edge enqueues jobs with
 * graphile_worker.add_job inside its transactions, so the schema must exist before either side runs.
 */
export async function migrate(sql: Sql, connectionString: string): Promise<string[]> {
  const files = migrationFiles();
  const applied: string[] = [];
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${LOCK})`;
    await tx`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`;
    const done = new Set((await tx`select name from schema_migrations`).map((r) => r.name as string));
    for (const file of files) {
      if (done.has(file)) continue;
      // Insert our row first so a concurrent migrator fails cleanly on the primary key.
      await tx`insert into schema_migrations (name) values (${file})`;
      await tx.unsafe(readFileSync(join(dir, file), 'utf8'));
      applied.push(file);
    }
  });
  await runMigrations({ connectionString, logger: quiet });
  return applied;
}
