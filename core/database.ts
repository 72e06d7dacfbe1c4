import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.ts';
import { connect } from '../sql/db.ts';
import { embeddedUrl, startEmbeddedPostgres } from '../sql/embedded.ts';

export interface ResolvedDatabase {
  url: string; embedded: boolean; stop(): Promise<void>;
  /** The embedded server started here: resolves when its process ends (unset for DATABASE_URL or a reused server). */
  exited?: Promise<void>;
  pid?: number;
}

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL with its data under DATA_DIR/pg.
 * With reuseRunning (the operator CLI, run beside `npm start`), an embedded server already
 * running on that data directory is used as it is and left running: a second server cannot
 * start there.
 */
export async function resolveDatabase(config: Config, opts: { reuseRunning?: boolean } = {}): Promise<ResolvedDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => {} };
  const dir = join(config.dataDir, 'pg');
  if (opts.reuseRunning && existsSync(join(dir, 'postmaster.pid'))) {
    const url = embeddedUrl(config.embeddedPgPort);
    const probe = connect(url, { max: 1 });
    try {
      await probe`select 1`;
      return { url, embedded: true, stop: async () => {} };
    } catch {
      // A stale pid file from a crash: the starter below copes with it.
    } finally {
      await probe.end({ timeout: 1 });
    }
  }
  const pg = await startEmbeddedPostgres(dir, config.embeddedPgPort);
  return { url: pg.url, embedded: true, stop: pg.stop, exited: pg.exited, pid: pg.pid };
}
