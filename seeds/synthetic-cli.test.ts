import { afterAll, beforeAll, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '../sql/db.ts';
import { EmbeddedInUseError, startEmbeddedPostgres, type EmbeddedDb } from '../sql/embedded.ts';
import { freePort } from '../test/ports.ts';

// `npm run seed:synthetic` beside a running `npm start` (which holds the embedded
// database): it says so and adds to that server instead of failing with an unclear message, and
// shows its progress (plain lines when stdout is not a terminal). Starting a second server on the
// same data says plainly that it is in use.
const root = join(import.meta.dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'directory-synth-'));
chmodSync(dataDir, 0o755); // as root, PostgreSQL runs as its own user and must reach DATA_DIR/pg
let held: EmbeddedDb;

beforeAll(async () => {
  held = await startEmbeddedPostgres(join(dataDir, 'pg'), await freePort(), 'directory', { durable: false });
}, 60_000);
afterAll(async () => {
  await held?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a second embedded server on data in use is refused with a clear message', async () => {
  const second = startEmbeddedPostgres(join(dataDir, 'pg'), await freePort());
  await expect(second).rejects.toBeInstanceOf(EmbeddedInUseError);
  await expect(second).rejects.toThrow(/already in use: a PostgreSQL server \(pid \d+, port \d+\) runs on it, most likely started by another `npm start`/);
});

test('seed:synthetic beside a running server adds to it and reports progress line by line', async () => {
  const child = spawn(process.execPath, [join(root, 'seeds/synthetic.ts'), '--listings', '25'], {
    cwd: root,
    // Another EMBEDDED_PG_PORT on purpose: the running server's own port is read from its pid file.
    env: { ...process.env, DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), DATABASE_URL: '', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  expect(out).not.toContain('undefined');
  expect(code).toBe(0);
  expect(out).toContain('already running');
  expect(out).toContain('[1/9] plan listings and weeks');
  expect(out).toContain('[7/9] award finished weeks');
  expect(out).toContain("[8/9] store the listings' profiles");
  expect(out).toContain('[9/9] vacuum what was filled');
  expect(out).toMatch(/done in [\d.]+ s: 25 listings/);
  const sql = connect(held.url, { max: 1 });
  try {
    const [{ n }] = await sql`select count(*)::int as n from listings`;
    expect(n).toBeGreaterThanOrEqual(25);
  } finally {
    await sql.end();
  }
}, 120_000);
