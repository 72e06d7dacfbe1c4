import { join, resolve } from 'node:path';
import type { Config } from './config.ts';
import { connect, type Sql } from '../sql/db.ts';
import { embeddedUrl, runningPostmaster, startEmbeddedPostgres } from '../sql/embedded.ts';
import { migrate } from '../sql/migrate.ts';
import { ensureSite, type SiteRow } from '../sql/site.ts';

export interface ResolvedDatabase {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
  /** An embedded server another process (npm start) already runs, used as it is and left running. */
  reused?: boolean;
  /** The embedded server started here: resolves when its process ends (unset for DATABASE_URL or a reused server). */
  exited?: Promise<void>;
  pid?: number;
}

export interface ResolveOptions {
  /** Use this URL instead of DATABASE_URL; null ignores DATABASE_URL (the bench keeps its own database). */
  url?: string | null;
  /** Embedded server's data directory; default DATA_DIR/pg. */
  dataDir?: string;
  /** Embedded server's port; default EMBEDDED_PG_PORT. */
  port?: number;
  /** Embedded server's database; default "directory". */
  database?: string;
  /** Use an embedded server already running on the data directory (the operator CLI beside `npm start`). */
  reuseRunning?: boolean;
  /**
   * Only an embedded server already running on the data directory: when none runs, fail with
   * NoRunningDatabaseError instead of starting one (which would create an empty database).
   */
  runningOnly?: boolean;
  /** Embedded server only: false runs it without fsync (the bench's throwaway data); default durable. */
  durable?: boolean;
}

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL with its data under DATA_DIR/pg.
 * With reuseRunning (the operator CLI, run beside `npm start`), an embedded server already
 * running on that data directory is used as it is and left running: a second server cannot
 * start there.
 */
export async function resolveDatabase(config: Config, opts: ResolveOptions = {}): Promise<ResolvedDatabase> {
  const external = opts.url === undefined ? config.databaseUrl : opts.url;
  if (external) return { url: external, embedded: false, stop: async () => {} };
  const dir = opts.dataDir ?? join(config.dataDir, 'pg');
  const port = opts.port ?? config.embeddedPgPort;
  const holder = opts.reuseRunning || opts.runningOnly ? runningPostmaster(dir) : null;
  if (holder) {
    // The running server's own port (from its postmaster.pid), whatever EMBEDDED_PG_PORT says here.
    const url = embeddedUrl(holder.port, opts.database);
    const probe = connect(url, { max: 1 });
    try {
      await probe`select 1`;
      return { url, embedded: true, reused: true, stop: async () => {} };
    } catch {
      // A stale pid file from a crash: the starter below copes with it.
    } finally {
      await probe.end({ timeout: 1 });
    }
  }
  if (opts.runningOnly) throw new NoRunningDatabaseError(dir, config.dataDir);
  const pg = await startEmbeddedPostgres(dir, port, opts.database, { durable: opts.durable, sharedBuffersMb: config.embeddedPgSharedBuffersMb });
  return { url: pg.url, embedded: true, stop: pg.stop, exited: pg.exited, pid: pg.pid };
}

export interface PrepareOptions extends ResolveOptions {
  /** Pool size of the returned connection; default 1. */
  connections?: number;
  /** The site row's URL; default SITE_URL. */
  siteUrl?: string;
  /** Runs after the site row exists (demo data on an empty database, synthetic fill, ...). */
  seed?: (sql: Sql, site: SiteRow) => Promise<void>;
  /**
   * false: leave the sites table alone. For processes that may run with another SITE_URL than
   * the edge's (the worker, the operator CLI): upserting the row would overwrite the edge's URL.
   */
  site?: boolean;
}

export interface PreparedDatabase extends ResolvedDatabase {
  /** A connection to the prepared database; stop() ends it. */
  sql: Sql;
  /** This deployment's site row (SITE_KEY). */
  site: SiteRow;
  /** Migrations this call applied. */
  applied: string[];
}

/**
 * Every entry point's database preparation, in one place: resolve the database (DATABASE_URL or
 * the embedded server), apply the migrations (advisory-locked, so concurrent callers are safe),
 * make sure this deployment's site row exists (unless site: false), then run the optional seed.
 * stop() ends the connection and, when this call started one, the embedded server.
 */
export async function prepareDatabase(config: Config, opts: PrepareOptions & { site: false; seed?: never }): Promise<Omit<PreparedDatabase, 'site'>>;
export async function prepareDatabase(config: Config, opts?: PrepareOptions & { site?: true }): Promise<PreparedDatabase>;
export async function prepareDatabase(config: Config, opts: PrepareOptions = {}): Promise<Omit<PreparedDatabase, 'site'> & { site?: SiteRow }> {
  const db = await resolveDatabase(config, opts);
  const sql = connect(db.url, { max: opts.connections ?? 1 });
  const stop = async () => {
    await sql.end({ timeout: 5 });
    await db.stop();
  };
  try {
    const applied = await migrate(sql, db.url);
    if (opts.site === false) return { ...db, sql, applied, stop };
    const site = await ensureSite(sql, config.siteKey, opts.siteUrl ?? config.siteUrl);
    if (opts.seed) await opts.seed(sql, site);
    return { ...db, sql, site, applied, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * No database to work on: DATABASE_URL is unset and no embedded server answers on the data
 * directory. Says where it looked and how to point the command at the database `npm start` runs.
 */
export class NoRunningDatabaseError extends Error {
  constructor(databaseDir: string, dataDir: string) {
    super(
      `no database to work on: DATABASE_URL is unset and no embedded PostgreSQL is running in ${resolve(databaseDir)} (DATA_DIR=${dataDir}). ` +
        'This command works on the database `npm start` runs and never creates one: start `npm start` in this directory first, ' +
        'or set DATA_DIR to the directory `npm start` uses, or DATABASE_URL to the PostgreSQL you mean.',
    );
    this.name = 'NoRunningDatabaseError';
  }
}
