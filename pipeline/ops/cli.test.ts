import { afterAll, beforeAll, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../../test/harness.ts';

// The real `bun pipeline/ops/cli.ts` against the database of a running edge: what an operator
// (or a script using `tail -n 1`) gets must work as a bearer credential.
const cli = join(import.meta.dirname, 'cli.ts');

function runCli(args: string[], databaseUrl: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' } });
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
  app = await startTestApp();
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
