import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { resolveDatabase } from '../../sql/bootstrap.ts';
import type { Config } from '../../sql/config.ts';
import { connect } from '../../sql/db.ts';

export interface OpsDatabase { url: string; stop(): Promise<void> }

/**
 * DATABASE_URL when set. Otherwise the embedded PostgreSQL: operators mostly run this while
 * `npm start` is up, and a second server cannot start on the same data directory, so a running
 * one (its postmaster.pid present and its port answering) is used as it is; only when none runs
 * does this start it, and stop it again when the command is done.
 */
export async function openOpsDatabase(config: Config): Promise<OpsDatabase> {
  if (!config.databaseUrl && existsSync(join(config.dataDir, 'pg', 'postmaster.pid'))) {
    // The URL startEmbeddedPostgres hands out for this port (sql/embedded.ts).
    const url = `postgres://directory:directory@127.0.0.1:${config.embeddedPgPort}/directory`;
    const probe = connect(url, { max: 1 });
    try {
      await probe`select 1`;
      return { url, stop: async () => {} };
    } catch {
      // A stale pid file from a crash: the embedded starter below copes with it.
    } finally {
      await probe.end({ timeout: 1 });
    }
  }
  const db = await resolveDatabase(config);
  return { url: db.url, stop: db.stop };
}
