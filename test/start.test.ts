import { afterAll, expect, test } from 'bun:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '../sql/db.ts';
import { eventually, until } from './eventually.ts';
import { freePort } from './harness.ts';

// `npm start` on a fresh machine: embedded PostgreSQL under DATA_DIR, demo seed, edge and worker,
// a clean stop on Ctrl-C, and data that survives a restart.
const root = join(import.meta.dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'directory-start-'));
chmodSync(dataDir, 0o755); // as root, PostgreSQL runs as its own user and must reach DATA_DIR/pg
let pgPort = 0;
let running: ChildProcess | undefined;
afterAll(async () => {
  if (running && running.exitCode === null) {
    running.kill('SIGINT');
    await new Promise((r) => running!.once('exit', r));
  }
  rmSync(dataDir, { recursive: true, force: true });
});

async function launch() {
  pgPort ||= await freePort();
  const port = await freePort();
  let out = '';
  const child = spawn(process.execPath, [join(root, 'deploy/start-all.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running = child;
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const base = `http://127.0.0.1:${port}`;
  await until(
    'npm start to answer /healthz',
    async () => {
      if (child.exitCode !== null) throw new Error(`npm start exited early:\n${out}`);
      return (await fetch(`${base}/healthz`).catch(() => null))?.ok;
    },
    { ms: 60_000 },
  );
  return { child, base, output: () => out };
}

async function stop(child: ChildProcess) {
  const code = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  child.kill('SIGINT');
  return code;
}

test('npm start seeds an empty database, runs edge and worker, stops cleanly and keeps its data', async () => {
  const first = await launch();
  const site = await (await fetch(`${first.base}/api/v1/site`)).json();
  expect(site.counts.live_listings).toBeGreaterThanOrEqual(250);
  expect(site.counts.categories).toBeGreaterThanOrEqual(25);
  expect(first.output()).toContain('seeded demo data');
  const sql = connect(`postgres://directory:directory@127.0.0.1:${pgPort}/directory`, { max: 1 });
  // The worker is up when it has created its schema and registered its cron schedule.
  const workerUp = await eventually(
    async () => {
      const [r] = await sql`select to_regclass('graphile_worker._private_known_crontabs') is not null as ok`;
      return r.ok && (await sql`select count(*)::int as n from graphile_worker._private_known_crontabs`)[0].n > 0;
    },
    Boolean,
    { tries: 100, everyMs: 200 },
  );
  // npm start keeps data: the embedded server runs durably (tests and bench run without fsync).
  const [durability] = await sql`select current_setting('fsync') as fsync, current_setting('synchronous_commit') as sync`;
  await sql.end();
  expect(workerUp).toBe(true);
  expect(durability).toEqual({ fsync: 'on', sync: 'on' });
  expect(await stop(first.child)).toBe(0);
  // Everything is down: the edge and the embedded database refuse connections.
  await expect(fetch(`${first.base}/healthz`)).rejects.toThrow();
  const probe = connect(`postgres://directory:directory@127.0.0.1:${pgPort}/directory`, { max: 1 });
  await expect(probe`select 1`).rejects.toThrow();
  await probe.end();

  const second = await launch();
  const again = await (await fetch(`${second.base}/api/v1/site`)).json();
  expect(again.counts.live_listings).toBe(site.counts.live_listings);
  expect(second.output()).not.toContain('seeded demo data');
  expect(await stop(second.child)).toBe(0);
}, 240_000);
