import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from './db.ts';

const dir = join(import.meta.dirname, 'migrations');
const LOCK = 7_301_911; // advisory lock key for migrations

/**
 * The graphile-worker release installed here, read from its package.json: importing the package
 * costs a process about 60 MB (its config loader brings TypeScript's compiler), which the edge,
 * that only enqueues jobs in SQL, should not carry for the one check at startup.
 */
export function workerRelease(): string {
  const entry = fileURLToPath(import.meta.resolve('graphile-worker'));
  return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
}

const functionsDir = join(import.meta.dirname, 'functions');

/**
 * The functions, views and triggers as they are now (sql/functions/NN_what.sql, in name order):
 * each file only creates or replaces, so applying them again is harmless.
 */
const functionFiles = () =>
  readdirSync(functionsDir)
    .filter((f) => /^\d{2}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ name: f, text: readFileSync(join(functionsDir, f), 'utf8') }));

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

async function runWorkerMigrations(connectionString: string) {
  const { Logger, runMigrations } = await import('graphile-worker');
  await runMigrations({ connectionString, logger: new Logger(() => () => {}) });
}

/**
 * Applies pending migrations in one transaction under an advisory lock, then in the same
 * transaction the files of sql/functions (where functions, views and triggers are defined: a
 * migration only creates tables and moves data), then installs
 * graphile-worker's schema (its own migrations, its own lock): the edge enqueues jobs with
 * graphile_worker.add_job inside its transactions, so the schema must exist before either side runs.
 */
export async function migrate(
  sql: Sql,
  connectionString: string,
  // Tests count the calls; everything else runs graphile-worker's own migrations.
  opts: { runWorkerMigrations?: (connectionString: string) => Promise<void> } = {},
): Promise<string[]> {
  const files = migrationFiles();
  const applied: string[] = [];
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${LOCK})`;
    await tx`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`;
    await tx`create table if not exists worker_schema_releases (release text primary key, applied_at timestamptz not null default now())`;
    await tx`comment on table worker_schema_releases is 'graphile-worker releases whose schema migrations have run here (sql/migrate.ts skips loading the package when its release is listed)'`;
    const done = new Set((await tx`select name from schema_migrations`).map((r) => r.name as string));
    for (const file of files) {
      if (done.has(file)) continue;
      // Insert our row first so a concurrent migrator fails cleanly on the primary key.
      await tx`insert into schema_migrations (name) values (${file})`;
      await tx.unsafe(readFileSync(join(dir, file), 'utf8'));
      applied.push(file);
    }
    // Re-applied after any migration and whenever the files changed, not on every start: replacing
    // a trigger locks its table against writes, and replacing a function drops every connection's
    // cached plans that use it, which an edge starting beside running ones should not cost them.
    await tx`create table if not exists schema_functions (id boolean primary key default true check (id), hash text not null, applied_at timestamptz not null default now())`;
    await tx`comment on table schema_functions is 'The hash of the sql/functions files last applied (sql/migrate.ts applies them again when it differs).'`;
    const functions = functionFiles();
    const hash = createHash('sha256')
      .update(functions.map((f) => `${f.name}\n${f.text}`).join('\n'))
      .digest('hex');
    const [last] = await tx<{ hash: string }[]>`select hash from schema_functions`;
    if (applied.length > 0 || last?.hash !== hash) {
      for (const f of functions) await tx.unsafe(f.text);
      await tx`insert into schema_functions (hash) values (${hash}) on conflict (id) do update set hash = excluded.hash, applied_at = now()`;
    }
  });
  // graphile-worker's schema changes only with its release: each release's migrations run once
  // and are recorded, so a process that finds its release recorded never loads the package.
  const release = workerRelease();
  const [{ done }] = await sql<{ done: boolean }[]>`
    select to_regnamespace('graphile_worker') is not null
       and exists (select 1 from worker_schema_releases where release = ${release}) as done`;
  if (!done) {
    await (opts.runWorkerMigrations ?? runWorkerMigrations)(connectionString);
    await sql`insert into worker_schema_releases (release) values (${release}) on conflict do nothing`;
  }
  return applied;
}
