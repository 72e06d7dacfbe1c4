// jobs dead-letters | requeue | discard against a real database and a real graphile-worker run:
// a refused payload is listed, a dead letter whose payload is now valid runs again, a discarded
// one is gone and audited.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Logger } from 'graphile-worker';
import { JOBS } from '../../core/jobs/index.ts';
import { freshDatabase } from '../../test/db.ts';
import { runJobs } from '../../test/jobs.ts';
import { defineTask } from '../tasks/task.ts';
import { runOpsCommand } from '../../test/ops.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db.drop());

const ops = (...argv: string[]) => runOpsCommand(argv, { sql: db.sql, actor: 'tester' });

const logger = new Logger(() => () => {});
const sent: number[] = [];
const taskList = { [JOBS.send_mail.name]: defineTask(JOBS.send_mail, async ({ id }) => void sent.push(id)) };

/** A dead letter as the worker writes it, with a payload of our choosing (job ids of our own, negative). */
async function deadLetter(task: string, payload: unknown, jobId: number) {
  const [r] = await db.sql`insert into job_dead_letters (job_id, task, payload, error, attempts)
    values (${jobId}, ${task}, ${db.sql.json(payload as never)}::jsonb, 'refused by an older version', 1) returning id::text`;
  return r!.id as string;
}
const letter = async (id: string) => (await db.sql`select id from job_dead_letters where id = ${id}`)[0];
// graphile_worker.jobs, its public view, shows no payload: what a job carried is seen when it runs.
const waiting = async (task: string) => (await db.sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = ${task}`)[0]!.n as number;

describe('jobs dead-letters', () => {
  test('a job the worker refused is listed, newest first, filtered by task and limited', async () => {
    expect((await ops('jobs', 'dead-letters')).stdout).toBe('no dead letters');
    await db.sql`select graphile_worker.add_job('send_mail', ${db.sql.json({ id: `not-a-number ${'x'.repeat(300)}`, v: 1 })}::json)`;
    await runJobs({ connectionString: db.url, taskList, logger });
    expect(sent).toEqual([]);
    await deadLetter('go_live', { listing_id: 'y' }, -100);

    const all = await ops('jobs', 'dead-letters');
    expect(all.code).toBe(0);
    expect(all.out[0]).toBe('id\ttask\tfailed\tjob\tattempts\terror\tpayload');
    expect(all.out).toHaveLength(3);
    expect(all.out[1]!.split('\t')[1]).toBe('go_live');
    const row = all.out[2]!.split('\t');
    expect(row[1]).toBe('send_mail');
    expect(row[2]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(row[4]).toBe('1');
    expect(row[5]).toContain('send_mail: invalid payload at /id');
    expect(row[6]).toStartWith('{"');
    expect(row[6]).toContain('"id":"not-a-number xxx');
    expect(row[6]).toHaveLength(200);
    expect(row[6]).toEndWith('…');

    const mail = await ops('jobs', 'dead-letters', '--task', 'send_mail');
    expect(mail.out.slice(1).map((l) => l.split('\t')[1])).toEqual(['send_mail']);
    expect((await ops('jobs', 'dead-letters', '--limit', '1')).out).toHaveLength(2);
    expect((await ops('jobs', 'dead-letters', '--task', 'refund_order')).stdout).toBe('no dead letters of refund_order');
  });
});

describe('jobs requeue', () => {
  test('queues the job again with its stored payload, which graphile-worker runs, and removes the letter', async () => {
    const id = await deadLetter('send_mail', { id: 42, v: 1 }, -1);
    const r = await ops('jobs', 'requeue', id);
    expect(r).toMatchObject({ code: 0, out: [`dead letter #${id} requeued as a send_mail job`] });
    expect(await letter(id)).toBeUndefined();
    expect(await waiting('send_mail')).toBe(1);
    const [audit] = await db.sql`select actor, before, after from operator_audit where action = 'dead_letter.requeue' and target = ${`dead_letter:${id}`}`;
    expect(audit).toMatchObject({ actor: 'tester', before: { task: 'send_mail', payload: { id: 42, v: 1 } } });

    await runJobs({ connectionString: db.url, taskList, logger });
    expect(sent).toEqual([42]);
    expect(await waiting('send_mail')).toBe(0);
  });

  test('a payload this version still refuses, or a job it does not know, stays as it is (exit 1)', async () => {
    const stale = await deadLetter('send_mail', { id: 43, v: 0 }, -2);
    const r = await ops('jobs', 'requeue', stale);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('still does not match its job (send_mail: payload version 0 is not the supported version 1)');
    const gone = await deadLetter('retired_task', {}, -3);
    expect((await ops('jobs', 'requeue', gone)).stderr).toContain('this version has no job "retired_task"');
    expect(await letter(stale)).toBeDefined();
    expect(await letter(gone)).toBeDefined();
    expect(await waiting('send_mail')).toBe(0);
    expect(await db.sql`select 1 from operator_audit where target in (${`dead_letter:${stale}`}, ${`dead_letter:${gone}`})`).toHaveLength(0);
  });
});

describe('jobs discard', () => {
  test('deletes the letter and audits it with the reason', async () => {
    const id = await deadLetter('send_mail', { id: 'bad', v: 1 }, -4);
    const r = await ops('jobs', 'discard', id, '--reason', 'the mail was for a deleted account');
    expect(r).toMatchObject({ code: 0, out: [`dead letter #${id} (send_mail) discarded`] });
    expect(await letter(id)).toBeUndefined();
    const audit = await ops('audit', '--target', `dead_letter:${id}`);
    expect(audit.out[0]).toMatch(/\ttester\tdead_letter\.discard\tdead_letter:\d+$/);
    const [before, after] = audit.out.slice(1, 3).map((l) => JSON.parse(l.replace(/^ +(before|after): +/, '')));
    expect(before).toMatchObject({ id, task: 'send_mail', payload: { id: 'bad', v: 1 }, error: 'refused by an older version' });
    expect(after).toEqual({ reason: 'the mail was for a deleted account' });
  });
});

describe('exit codes', () => {
  test('an unknown id is exit 1 and changes nothing', async () => {
    for (const argv of [
      ['requeue', '999999'],
      ['discard', '999999', '--reason', 'gone'],
    ]) {
      const r = await ops('jobs', ...argv);
      expect([argv, r.code, r.stderr]).toEqual([argv, 1, 'ops: no dead letter #999999']);
    }
    expect(await db.sql`select 1 from operator_audit where target = 'dead_letter:999999'`).toHaveLength(0);
  });

  test('bad usage is exit 2 with a message on stderr', async () => {
    for (const argv of [
      [],
      ['resurrect'],
      ['requeue'],
      ['requeue', 'abc'],
      ['requeue', '0'],
      ['requeue', '1', '2'],
      ['requeue', '1', '--reason', 'x'],
      ['discard', '1'],
      ['discard', '1', '--reason', ' '],
      ['dead-letters', '--limit', '0'],
      ['dead-letters', '--limit', '501'],
      ['dead-letters', '--task', ''],
      ['dead-letters', 'extra'],
    ]) {
      const r = await ops('jobs', ...argv);
      expect([argv, r.code]).toEqual([argv, 2]);
      expect(r.out).toEqual([]);
      expect(r.stderr).toStartWith('ops: ');
    }
  });

  test('help lists the commands', async () => {
    const r = await ops('help');
    for (const c of ['jobs dead-letters [--limit N] [--task T]', 'jobs requeue <id>', 'jobs discard <id> --reason R']) expect(r.stdout).toContain(c);
  });
});
