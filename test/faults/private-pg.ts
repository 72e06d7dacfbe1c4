import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDb } from '../../sql/embedded.ts';
import { freePort } from '../ports.ts';

/**
 * A private embedded PostgreSQL for fault tests (the shared test server must not be killed):
 * its own temporary data directory and port, killable (SIGKILL of the postmaster, as a crash)
 * and restartable on the same port and data.
 */
export interface PrivatePg {
  url: string;
  port: number;
  dir: string;
  kill(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export async function privatePg(): Promise<PrivatePg> {
  const root = mkdtempSync(join(tmpdir(), 'directory-fault-pg-'));
  chmodSync(root, 0o755); // as root, PostgreSQL runs as its own user and must reach the folder
  const dir = join(root, 'pg');
  const port = await freePort();
  let db: EmbeddedDb | null = await startEmbeddedPostgres(dir, port);
  const postmaster = () => Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url: db.url,
    port,
    dir,
    async kill() {
      const pid = postmaster();
      process.kill(pid, 'SIGKILL');
      db = null;
      for (let i = 0; i < 200 && alive(pid); i++) await Bun.sleep(25);
      // Its backends notice the postmaster's death and exit; give them a moment before a restart.
      await Bun.sleep(300);
    },
    async restart() {
      if (!db) db = await startEmbeddedPostgres(dir, port);
    },
    async stop() {
      if (db) await db.stop().catch(() => {});
      else if (existsSync(join(dir, 'postmaster.pid'))) {
        try {
          process.kill(postmaster(), 'SIGKILL');
        } catch {
          /* gone */
        }
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
