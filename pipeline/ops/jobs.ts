import { parseArgs } from 'node:util';
import { recordAudit } from '../../core/audit.ts';
import { enqueue, JOBS, parsePayload, PayloadError, type JobDefinition } from '../../core/jobs/index.ts';
import { transaction, type Sql } from '../../sql/db.ts';
import { EXIT, isoTime, OpsFailure, UsageError, type OpsIo } from './io.ts';
import { wholeNumber } from './site-settings.ts';

interface DeadLetter {
  id: string;
  job_id: string;
  task: string;
  payload: unknown;
  error: string;
  attempts: number;
  failed_at: Date;
}

const PAYLOAD_SHOWN = 200;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const abbreviated = (payload: unknown) => {
  const text = payload === null ? '-' : JSON.stringify(payload);
  return text.length > PAYLOAD_SHOWN ? `${text.slice(0, PAYLOAD_SHOWN - 1)}…` : text;
};

const letterId = (positionals: string[], sub: string) => {
  const [raw, extra] = positionals;
  if (!raw || !/^\d{1,18}$/.test(raw) || BigInt(raw) < 1n)
    throw new UsageError(`jobs ${sub} takes one dead letter id, a positive integer (see jobs dead-letters)`);
  if (extra !== undefined) throw new UsageError(`unexpected "${extra}"`);
  return raw;
};

const reasonOf = (raw: string | undefined) => {
  const reason = raw?.trim() ?? '';
  if (!reason) throw new UsageError('--reason is required: it is kept in the audit trail with the discarded job');
  if (reason.length > 500) throw new UsageError('--reason must be at most 500 characters');
  return reason;
};

const lockLetter = async (tx: Sql, id: string) =>
  (
    await tx<DeadLetter[]>`
    select id::text, job_id::text, task, payload, error, attempts, failed_at from job_dead_letters where id = ${id} for update`
  )[0];

const jobNamed = (task: string): JobDefinition | undefined => Object.values(JOBS).find((j) => j.name === task) as JobDefinition | undefined;

/** jobs dead-letters [--limit N] [--task T] | jobs requeue <id> | jobs discard <id> --reason R */
export async function jobsCommand(args: string[], io: OpsIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'dead-letters') return await listDeadLetters(rest, io);
  if (sub === 'requeue' || sub === 'discard') {
    const { values, positionals } = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: true,
      options: sub === 'discard' ? { reason: { type: 'string' } } : {},
    });
    const id = letterId(positionals, sub);
    return sub === 'requeue' ? await requeue(id, io) : await discard(id, reasonOf((values as { reason?: string }).reason), io);
  }
  throw new UsageError(sub ? `unknown jobs command "${sub}"` : 'jobs needs a command: dead-letters, requeue or discard');
}

async function listDeadLetters(args: string[], io: OpsIo): Promise<number> {
  const { values } = parseArgs({ args, strict: true, options: { limit: { type: 'string' }, task: { type: 'string' } } });
  const limit = values.limit === undefined ? 20 : wholeNumber(values.limit, '--limit', 1, 500);
  const task = values.task?.trim();
  if (task !== undefined && (!task || task.length > 200)) throw new UsageError('--task must name a task (at most 200 characters)');
  const rows = await io.sql<DeadLetter[]>`
    select id::text, job_id::text, task, payload, error, attempts, failed_at from job_dead_letters
    where ${task ?? null}::text is null or task = ${task ?? null}
    order by failed_at desc, id desc limit ${limit}`;
  if (!rows.length) {
    io.out(task ? `no dead letters of ${task}` : 'no dead letters');
    return EXIT.ok;
  }
  io.out(['id', 'task', 'failed', 'job', 'attempts', 'error', 'payload'].join('\t'));
  for (const r of rows) {
    io.out([r.id, r.task, isoTime(r.failed_at), r.job_id, String(r.attempts), oneLine(r.error), abbreviated(r.payload)].join('\t'));
  }
  return EXIT.ok;
}

/**
 * Queues the job again with its stored payload, as the producer would have (the catalogue's key,
 * queue, priority and attempts, through enqueue's graphile_worker.add_job: a job of the same key
 * still waiting is replaced, as by a second enqueue), and removes the dead letter in the same
 * transaction. The payload is checked against this version's job first: one
 * that still does not match would only be set aside again, so it stays here (discard it, or
 * requeue it after a deploy that accepts it).
 */
async function requeue(id: string, io: OpsIo): Promise<number> {
  const task = await transaction(io.sql, async (tx) => {
    const letter = await lockLetter(tx, id);
    if (!letter) throw new OpsFailure(`no dead letter #${id}`);
    const job = jobNamed(letter.task);
    if (!job) throw new OpsFailure(`dead letter #${id}: this version has no job "${letter.task}"; discard it`);
    let payload: ReturnType<typeof parsePayload>;
    try {
      payload = parsePayload(job, letter.payload);
    } catch (e) {
      if (e instanceof PayloadError) throw new OpsFailure(`dead letter #${id} still does not match its job (${e.message}): left as it is`);
      throw e;
    }
    await enqueue(tx, job, payload);
    await tx`delete from job_dead_letters where id = ${id}`;
    await recordAudit(tx, { actor: io.actor ?? 'operator', action: 'dead_letter.requeue', target: `dead_letter:${id}`, before: letter, after: null });
    return job.name;
  });
  io.out(`dead letter #${id} requeued as a ${task} job`);
  return EXIT.ok;
}

async function discard(id: string, reason: string, io: OpsIo): Promise<number> {
  const task = await transaction(io.sql, async (tx) => {
    const letter = await lockLetter(tx, id);
    if (!letter) throw new OpsFailure(`no dead letter #${id}`);
    await tx`delete from job_dead_letters where id = ${id}`;
    await recordAudit(tx, { actor: io.actor ?? 'operator', action: 'dead_letter.discard', target: `dead_letter:${id}`, before: letter, after: { reason } });
    return letter.task;
  });
  io.out(`dead letter #${id} (${task}) discarded`);
  return EXIT.ok;
}
