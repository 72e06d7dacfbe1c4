import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDb } from '../../sql/embedded.ts';
import { eventually } from '../eventually.ts';
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

/** Running, not exited (a zombie no one reaped yet counts as exited). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** The processes a PostgreSQL postmaster started (its backends and background workers). */
const children = (pid: number) =>
  spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
    .map(Number);

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
      const backends = children(pid);
      process.kill(pid, 'SIGKILL');
      db = null;
      // Its backends notice the postmaster's death and exit; a restart waits until they are gone.
      await eventually(
        async () => [pid, ...backends].some(alive),
        (any) => !any,
        { tries: 200, everyMs: 25 },
      );
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
