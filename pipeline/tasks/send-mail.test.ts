import { afterAll, beforeAll, expect, test } from 'bun:test';
import { Logger } from 'graphile-worker';
import { runJobs } from '../../test/jobs.ts';
import { loadConfig } from '../../core/config.ts';
import { enqueueMail } from '../../core/mail/outbox.ts';
import { freshDatabase } from '../../test/db.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { sendMail } from './send-mail.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let sink: SmtpSink;
beforeAll(async () => {
  db = await freshDatabase();
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.stop();
  await db.drop();
});

/** A graphile logger that keeps the messages, so the tests can read what the task said. */
function recordingLogger() {
  const lines: string[] = [];
  return {
    lines,
    logger: new Logger(() => (_level, message) => {
      lines.push(message);
    }),
  };
}

const mailTask = (config: ReturnType<typeof loadConfig>) => sendMail({ sql: db.sql, mail: config.mail });
const configWith = (env: Record<string, string>) => loadConfig({ SITE_URL: 'http://127.0.0.1:1', MAIL_FROM: 'robot@directory.test', ...env });

async function outboxRow(id: string) {
  const [row] = await db.sql`select sent_at, attempts, last_error from mail_outbox where id = ${id}`;
  return row as { sent_at: Date | null; attempts: number; last_error: string | null };
}

const mail = (to: string, text = 'Hello there. A long line follows: https://example.test/sign-in/verify?token=ldl_' + 'x'.repeat(60)) => ({
  to,
  subject: 'Greetings from the directory',
  text,
  html: `<p>${text}</p>`,
  kind: 'test',
});

test('delivers an outbox row over SMTP, marks it sent, and does not send it twice', async () => {
  const task = mailTask(configWith({ SMTP_URL: sink.url }));
  const { logger } = recordingLogger();
  const id = await enqueueMail(db.sql, mail('first@example.test'));
  await runJobs({ connectionString: db.url, taskList: { send_mail: task }, logger });

  const got = await sink.waitFor((m) => m.to.includes('first@example.test'));
  expect(got.from).toBe('robot@directory.test');
  expect(got.subject).toBe('Greetings from the directory');
  expect(got.text).toContain('https://example.test/sign-in/verify?token=ldl_' + 'x'.repeat(60));
  expect(got.html).toContain('<p>Hello there.');
  const row = await outboxRow(id);
  expect(row.sent_at).toBeInstanceOf(Date);
  expect(row.attempts).toBe(1);
  expect(row.last_error).toBeNull();

  // At-least-once delivery: the same job again finds the row sent and leaves it alone.
  await db.sql`select graphile_worker.add_job('send_mail', json_build_object('id', ${id}::bigint))`;
  await runJobs({ connectionString: db.url, taskList: { send_mail: task }, logger });
  expect(sink.messages.filter((m) => m.to.includes('first@example.test'))).toHaveLength(1);
  expect((await outboxRow(id)).attempts).toBe(1);
});

test('a refused delivery records the error and fails the job; the retry delivers it', async () => {
  const task = mailTask(configWith({ SMTP_URL: sink.url }));
  const { logger } = recordingLogger();
  const id = await enqueueMail(db.sql, mail('second@example.test'));
  sink.rejectWith = 'mailbox unavailable for tests';
  try {
    await runJobs({ connectionString: db.url, taskList: { send_mail: task }, logger });
  } finally {
    sink.rejectWith = null;
  }
  const failed = await outboxRow(id);
  expect(failed.sent_at).toBeNull();
  expect(failed.attempts).toBe(1);
  expect(failed.last_error).toContain('mailbox unavailable for tests');
  const [job] = await db.sql`select attempts, last_error, run_at > now() as later from graphile_worker.jobs where key = ${'mail:' + id}`;
  expect(job).toMatchObject({ attempts: 1, later: true });

  // graphile-worker retries with backoff; move the retry to now instead of waiting for it.
  await db.sql`select graphile_worker.reschedule_jobs(array(select id from graphile_worker.jobs where key = ${'mail:' + id}), run_at => now())`;
  await runJobs({ connectionString: db.url, taskList: { send_mail: task }, logger });
  await sink.waitFor((m) => m.to.includes('second@example.test'));
  const sent = await outboxRow(id);
  expect(sent.sent_at).toBeInstanceOf(Date);
  expect(sent.attempts).toBe(2);
  expect(sent.last_error).toBeNull();
  expect((await db.sql`select count(*)::int as n from graphile_worker.jobs where key = ${'mail:' + id}`)[0].n).toBe(0);
});

test('an unreachable SMTP server fails the job and records why', async () => {
  // A port nothing listens on: the sink's own port after stopping a second sink.
  const dead = await startSmtpSink();
  await dead.stop();
  const task = mailTask(configWith({ SMTP_URL: dead.url }));
  const id = await enqueueMail(db.sql, mail('third@example.test'));
  await runJobs({ connectionString: db.url, taskList: { send_mail: task }, logger: recordingLogger().logger });
  const row = await outboxRow(id);
  expect(row.sent_at).toBeNull();
  expect(row.attempts).toBe(1);
  expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
  await db.sql`select graphile_worker.remove_job(${'mail:' + id})`;
});

test('without SMTP_URL the mail stays in the outbox, and the worker says so once', async () => {
  const task = mailTask(configWith({}));
  const { logger, lines } = recordingLogger();
  const before = sink.messages.length;
  const a = await enqueueMail(db.sql, mail('fourth@example.test'));
  const b = await enqueueMail(db.sql, mail('fifth@example.test'));
  await runJobs({ connectionString: db.url, taskList: { send_mail: task }, logger });
  for (const id of [a, b]) expect(await outboxRow(id)).toMatchObject({ sent_at: null, attempts: 0, last_error: null });
  // The jobs are done (not retried forever); the rows are what operators read.
  expect((await db.sql`select count(*)::int as n from graphile_worker.jobs where key in (${'mail:' + a}, ${'mail:' + b})`)[0].n).toBe(0);
  expect(lines.filter((l) => l.includes('SMTP_URL is not set'))).toHaveLength(1);
  expect(sink.messages.length).toBe(before);
});

test('a job for a missing row finishes without sending', async () => {
  const task = mailTask(configWith({ SMTP_URL: sink.url }));
  const { logger, lines } = recordingLogger();
  const before = sink.messages.length;
  await db.sql`select graphile_worker.add_job('send_mail', json_build_object('id', 987654321))`;
  await runJobs({ connectionString: db.url, taskList: { send_mail: task }, logger });
  expect(lines.some((l) => l.includes('no mail_outbox row 987654321'))).toBe(true);
  expect(sink.messages.length).toBe(before);
});
