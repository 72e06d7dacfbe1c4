import { afterAll, beforeAll, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../../test/harness.ts';

// The real `bun pipeline/ops/cli.ts` against the database of a running edge: what an operator
// (or a script using `tail -n 1`) gets must work as a bearer credential.
const cli = join(import.meta.dirname, 'cli.ts');

function runCli(args: string[], databaseUrl: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ socket: false });
});
afterAll(() => app.stop());

test('api-key create prints a secret on the last line that the edge accepts as a bearer token', async () => {
  const r = await runCli(['api-key', 'create', '--email', 'ops@example.com', '--scopes', 'account:read,listings:write', '--name', 'cli'], app.databaseUrl);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  const secret = lines.at(-1)!;
  expect(secret).toMatch(/^ldk_\S+$/);
  const me = await app.json('/me', { headers: { authorization: `Bearer ${secret}` } });
  expect(me.status).toBe(200);
  expect(me.body.user.email).toBe('ops@example.com');
  expect(me.body.credential).toMatchObject({ kind: 'api_key', name: 'cli', scopes: ['account:read', 'listings:write'] });
});

test('bad usage exits 2 with the reason on stderr', async () => {
  const r = await runCli(['api-key', 'create', '--email', 'ops@example.com', '--scopes', 'account:write'], app.databaseUrl);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toContain('unknown scope "account:write"');
});

test('with no database running it creates none: it names the directory it looked in and how to point it elsewhere', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-no-db-'));
  try {
    const r = await runCli(['outbox'], '', { DATA_DIR: dataDir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`no embedded PostgreSQL is running in ${join(dataDir, 'pg')}`);
    expect(r.stderr).toContain('DATA_DIR');
    expect(r.stderr).toContain('DATABASE_URL');
    expect(existsSync(join(dataDir, 'pg'))).toBe(false);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a reader that stops early (| head) ends it quietly', async () => {
  // Enough mail that the listing outlasts the pipe's buffer once the reader has gone.
  await app.sql`insert into mail_outbox (kind, to_address, subject, body_text)
    select 'notice', 'reader' || g || '@example.com', 'Subject ' || g, repeat('line of text ', 40) from generate_series(1, 500) g`;
  const child = spawn(process.execPath, [cli, 'outbox', '--limit', '500'], { env: { ...process.env, DATABASE_URL: app.databaseUrl, LOG_LEVEL: 'silent' } });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const first = await new Promise<string>((resolve) => child.stdout.once('data', (d) => resolve(String(d))));
  child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(first).toContain('to reader');
  expect(stderr).toBe('');
  expect(code).toBe(0);
});
