import { afterAll, beforeAll, expect, test } from 'bun:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freshDatabase } from '../../test/db.ts';
import { eventually, until } from '../../test/eventually.ts';
import { freePort } from '../../test/ports.ts';
import { enqueueMail } from '../../core/mail/outbox.ts';

// The worker as production runs it (`bun pipeline/main.ts`): JSON logs through pino, and its
// probe/metrics port answering /healthz, /readyz and /metrics with job and queue figures.
const root = join(import.meta.dirname, '../..');
let db: Awaited<ReturnType<typeof freshDatabase>>;
let child: ChildProcess;
let port: number;
let output = '';

beforeAll(async () => {
  db = await freshDatabase();
  port = await freePort();
  child = spawn(process.execPath, [join(root, 'pipeline/main.ts')], {
    env: { ...process.env, DATABASE_URL: db.url, WORKER_HEALTH_PORT: String(port), LOG_LEVEL: 'info', SMTP_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => {
    output += d;
  });
  child.stderr!.on('data', (d) => {
    output += d;
  });
  await until('the worker to listen', async () => output.includes('worker health and metrics listening'), { ms: 15_000 });
}, 30_000);
afterAll(async () => {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  await db.drop();
});

const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`);

test('/healthz and /readyz answer; readiness lists its checks', async () => {
  expect((await get('/healthz')).status).toBe(200);
  const ready = await get('/readyz');
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ ok: true, checks: { database: 'ok', migrations: 'ok' } });
  expect((await get('/nope')).status).toBe(404);
});

test('/metrics counts jobs by task and outcome, and shows the queue', async () => {
  await enqueueMail(db.sql, { to: 'a@example.com', subject: 'hi', text: 'hello', kind: 'test' });
  const text = await eventually(
    async () => (await get('/metrics')).text(),
    (t) => /directory_jobs_total\{task="send_mail",outcome="success"\} 1/.test(t),
    { tries: 100, everyMs: 100 },
  );
  expect(text).toMatch(/directory_jobs_total\{task="send_mail",outcome="success"\} 1/);
  expect(text).toMatch(/directory_job_duration_seconds_count\{task="send_mail",outcome="success"\} 1/);
  expect(text).toContain('directory_queue_oldest_waiting_seconds');
  expect(text).toContain('directory_worker_process_resident_memory_bytes');
});

test('logs are pino JSON lines with the worker as their service', () => {
  const lines = output.split('\n').filter((l) => l.startsWith('{'));
  expect(lines.length).toBeGreaterThan(0);
  for (const l of lines) expect(JSON.parse(l).svc).toBe('worker');
});

test('SIGTERM stops the worker cleanly (exit 0)', async () => {
  child.kill('SIGTERM');
  const code = await new Promise((r) => child.once('exit', (c) => r(c)));
  expect(code).toBe(0);
});
