// defineTask against a real database: a payload that does not match its job fails at once,
// permanently (no retries with backoff), with the reason in the log and on the job row; a valid
// payload runs with its typed fields.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { Logger } from 'graphile-worker';
import { runJobs } from '../../test/jobs.ts';
import { Type } from '@sinclair/typebox';
import { defineJob, enqueue, JOBS } from '../../core/jobs/index.ts';
import { freshDatabase } from '../../test/db.ts';
import { defineTask } from './task.ts';
import { sendMail } from './send-mail.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db.drop());

const ECHO = defineJob({
  name: 'test_echo',
  version: 2,
  maxAttempts: 5,
  about: 'Test job: records its payload.',
  payload: Type.Object({ n: Type.Integer(), label: Type.Optional(Type.String()) }, { additionalProperties: false }),
});

function recordingLogger() {
  const lines: string[] = [];
  return {
    lines,
    logger: new Logger(() => (_level, message) => {
      lines.push(message);
    }),
  };
}

const seen: { n: number; label?: string }[] = [];
const echo = defineTask(ECHO, async (payload) => {
  seen.push(payload);
});

/** A job added by hand, as a bug or an old producer would, bypassing enqueue()'s own check. */
async function addRaw(task: string, payload: unknown, maxAttempts: number) {
  const [{ id }] =
    await db.sql`select (graphile_worker.add_job(${task}, ${db.sql.json(payload as never)}::json, max_attempts => ${maxAttempts})).id::text as id`;
  return id as string;
}
const jobRow = async (id: string) =>
  (await db.sql`select attempts, max_attempts, last_error from graphile_worker.jobs where id = ${id}`)[0] as
    | { attempts: number; max_attempts: number; last_error: string | null }
    | undefined;

const bad: [string, unknown, RegExp][] = [
  ['a field of the wrong type', { n: 'three', v: 2 }, /test_echo: invalid payload at \/n/],
  ['an unknown field', { n: 3, extra: true, v: 2 }, /test_echo: invalid payload/],
  ['another version', { n: 3, v: 1 }, /test_echo: payload version 1 is not the supported version 2/],
  ['not an object', [1, 2], /test_echo: the payload is not an object/],
];

for (const [what, payload, message] of bad) {
  test(`a payload with ${what} fails permanently on its first attempt, saying why`, async () => {
    const { logger, lines } = recordingLogger();
    const before = seen.length;
    const id = await addRaw(ECHO.name, payload, ECHO.maxAttempts);
    await runJobs({ connectionString: db.url, taskList: { [ECHO.name]: echo }, logger });
    expect(seen.length).toBe(before);
    const row = await jobRow(id);
    expect(row).toMatchObject({ attempts: 1, max_attempts: 1 });
    expect(row!.last_error).toMatch(message);
    expect(lines.some((l) => message.test(l) && l.includes('fails permanently without retries'))).toBe(true);
    // Even when its retry would be due, a permanently failed job is not picked up again.
    await db.sql`update graphile_worker._private_jobs set run_at = now() where id = ${id}`;
    await runJobs({ connectionString: db.url, taskList: { [ECHO.name]: echo }, logger });
    expect(await jobRow(id)).toMatchObject({ attempts: 1, max_attempts: 1 });
  });
}

test('a valid payload runs with its fields (v removed); one without v counts as the current version', async () => {
  const { logger } = recordingLogger();
  await enqueue(db.sql, ECHO, { n: 7, label: 'seven' });
  await addRaw(ECHO.name, { n: 8 }, ECHO.maxAttempts);
  await runJobs({ connectionString: db.url, taskList: { [ECHO.name]: echo }, logger });
  expect(seen).toContainEqual({ n: 7, label: 'seven' });
  expect(seen).toContainEqual({ n: 8 });
  expect((await db.sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = ${ECHO.name} and attempts < max_attempts`)[0].n).toBe(0);
});

test('a catalogue job (send_mail) with a bad payload is not retried up to its 25 attempts', async () => {
  const { logger, lines } = recordingLogger();
  const id = await addRaw(JOBS.send_mail.name, { id: 'not-a-number', v: 1 }, JOBS.send_mail.maxAttempts);
  await runJobs({
    connectionString: db.url,
    taskList: { [JOBS.send_mail.name]: sendMail({ sql: db.sql, mail: { smtpUrl: null, from: 'robot@directory.test' } }) },
    logger,
  });
  expect(await jobRow(id)).toMatchObject({ attempts: 1, max_attempts: 1 });
  expect(lines.some((l) => l.includes('send_mail: invalid payload at /id'))).toBe(true);
});
