// defineTask against a real database: a payload that does not match its job is set aside at once
// in job_dead_letters with the reason (in the log too) and its job completed, so it is never
// retried; a valid payload runs with its typed fields.
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
const deadLetters = async (id: string) =>
  (await db.sql`select task, payload, error, attempts from job_dead_letters where job_id = ${id}`).map((r) => ({ ...r })) as {
    task: string;
    payload: unknown;
    error: string;
    attempts: number;
  }[];

const bad: [string, unknown, RegExp][] = [
  ['a field of the wrong type', { n: 'three', v: 2 }, /test_echo: invalid payload at \/n/],
  ['an unknown field', { n: 3, extra: true, v: 2 }, /test_echo: invalid payload/],
  ['another version', { n: 3, v: 1 }, /test_echo: payload version 1 is not the supported version 2/],
  ['not an object', [1, 2], /test_echo: the payload is not an object/],
];

for (const [what, payload, message] of bad) {
  test(`a payload with ${what} is set aside on its first attempt, saying why, and never retried`, async () => {
    const { logger, lines } = recordingLogger();
    const before = seen.length;
    const id = await addRaw(ECHO.name, payload, ECHO.maxAttempts);
    await runJobs({ connectionString: db.url, taskList: { [ECHO.name]: echo }, logger });
    expect(seen.length).toBe(before);
    const [letter, ...more] = await deadLetters(id);
    expect(more).toEqual([]);
    expect(letter).toMatchObject({ task: ECHO.name, payload, attempts: 1 });
    expect(letter!.error).toMatch(message);
    expect(lines.some((l) => message.test(l) && l.includes('set aside in job_dead_letters'))).toBe(true);
    // Its job is complete: nothing is left to retry, however often the worker runs.
    expect(await jobRow(id)).toBeUndefined();
    await runJobs({ connectionString: db.url, taskList: { [ECHO.name]: echo }, logger });
    expect(seen.length).toBe(before);
    expect(await deadLetters(id)).toHaveLength(1);
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
  expect(await jobRow(id)).toBeUndefined();
  expect(await deadLetters(id)).toMatchObject([{ task: 'send_mail', payload: { id: 'not-a-number', v: 1 }, attempts: 1 }]);
  expect(lines.some((l) => l.includes('send_mail: invalid payload at /id'))).toBe(true);
});

test('a job delivered again after a crash is set aside once', async () => {
  const { logger } = recordingLogger();
  const id = await addRaw(ECHO.name, { n: 'again', v: 2 }, ECHO.maxAttempts);
  // As if a worker died after writing the dead letter but before completing the job.
  await db.sql`insert into job_dead_letters (job_id, task, payload, error, attempts) values (${id}, ${ECHO.name}, '{}', 'first delivery', 1)`;
  await runJobs({ connectionString: db.url, taskList: { [ECHO.name]: echo }, logger });
  expect(await jobRow(id)).toBeUndefined();
  expect(await deadLetters(id)).toMatchObject([{ error: 'first delivery' }]);
});
