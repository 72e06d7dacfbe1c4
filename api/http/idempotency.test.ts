import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { loadConfig } from '../../core/config.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { DomainError } from '../../core/errors/index.ts';
import { claimIdempotencyKey, deleteExpiredIdempotencyKeys, extendIdempotencyLease } from '../../sql/queries/idempotency.ts';
import { ensureSite } from '../../sql/site.ts';
import type { Sql } from '../../sql/db.ts';
import { freshDatabase } from '../../test/db.ts';
import { defineOperation, type Operation, type OperationContext, type Principal } from '../registry/operation.ts';
import { buildOpenApi } from '../openapi/document.ts';
import { callTool, toolSpecOf, validateArguments } from '../mcp/tools.ts';
import { INSTRUCTIONS } from '../mcp/mount.ts';
import { createCache } from './cache.ts';
import { execute, type Executed } from './execute.ts';
import { idempotencyHeaders, parseIdempotencyHeader } from './idempotency.ts';
import { errorHeaders } from './problem.ts';

// The operations under test are defined here, so the behaviour is pinned whatever the registry
// holds. Their handler writes a real row (the side effect a retry must not repeat) and can be
// held open, made to answer a domain error or made to crash.
let mode: 'ok' | 'domain' | 'crash' | 'rate_limited' = 'ok';
/** While set, the handler announces that it started and waits to be released. */
let gate: { signal: () => void; opened: Promise<void> } | null = null;

/** Holds the next handler runs open: `entered` resolves once one started, `release` lets them go. */
function holdHandler() {
  let signal!: () => void;
  let release!: () => void;
  const entered = new Promise<void>((r) => {
    signal = r;
  });
  const opened = new Promise<void>((r) => {
    release = r;
  });
  gate = { signal, opened };
  return {
    entered,
    release: () => {
      gate = null;
      release();
    },
  };
}

const makeOp = (name: string) =>
  defineOperation({
    name,
    method: 'POST',
    path: `/${name}/{thing}`,
    tag: 'Test',
    scope: 'listings:write',
    status: 201,
    idempotent: true,
    summary: 'Make a note.',
    description: 'Writes a note row.',
    params: Type.Object({ thing: Type.String({ maxLength: 20 }) }, { additionalProperties: false }),
    body: Type.Object({ note: Type.String({ maxLength: 100 }) }, { additionalProperties: false }),
    output: Type.Object({ id: Type.Integer(), note: Type.String() }),
    handler: async (input, ctx) => {
      if (gate) {
        const g = gate;
        g.signal();
        await g.opened;
      }
      if (mode === 'domain') throw new DomainError('not_found', `No such thing: ${input.thing}`, { fields: [{ field: 'thing', message: 'is unknown' }] });
      if (mode === 'rate_limited') throw new DomainError('rate_limited', 'Slow down.');
      if (mode === 'crash') throw new Error('the database fell over');
      const [row] = await ctx.sql<{ id: number }[]>`insert into idem_probe (op, note) values (${name}, ${input.note}) returning id`;
      return { id: row.id, note: input.note };
    },
  });
const noteOp = makeOp('make_note');
const otherOp = makeOp('other_note');

let db: { url: string; sql: Sql; drop(): Promise<void> };
let base: Omit<OperationContext, 'principal' | 'idempotencyKey'>;
let ann: Principal;
let bob: Principal;

const principal = async (email: string): Promise<Principal> => {
  const u = await findOrCreateUser(db.sql, email);
  return { userId: u.id, email, kind: 'api_key', credentialId: `key:${u.id}`, scopes: ['listings:write'] };
};

const ctxOf = (key: string | undefined, who: Principal | null = ann): OperationContext => ({
  ...base,
  principal: who,
  idempotencyKey: key,
  requestId: crypto.randomUUID(),
});

const run = (key: string | undefined, input: Record<string, unknown> = { thing: 'a', note: 'hello' }, opts: { op?: Operation; who?: Principal | null } = {}) =>
  execute(opts.op ?? noteOp, input, ctxOf(key, opts.who === undefined ? ann : opts.who));

async function failure(p: Promise<unknown>): Promise<DomainError & { replayed?: boolean }> {
  try {
    await p;
  } catch (e) {
    return e as DomainError;
  }
  throw new Error('expected the call to fail');
}

const executions = async (op = 'make_note') => Number((await db.sql`select count(*)::int as n from idem_probe where op = ${op}`)[0].n);
const keyRow = (key: string) => db.sql`select * from idempotency_keys where key = ${key}`;

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql`create table idem_probe (id serial primary key, op text not null, note text not null)`;
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const site = await ensureSite(db.sql, config.siteKey, config.siteUrl);
  base = {
    sql: db.sql,
    site,
    config,
    cache: createCache({ ttlSeconds: 0, redisUrl: null, initialGeneration: 0 }),
    credentialRejected: false,
    requestId: 'test',
  };
  ann = await principal('ann@example.com');
  bob = await principal('bob@example.com');
});
afterAll(async () => {
  await db.drop();
});
beforeEach(async () => {
  mode = 'ok';
  gate = null;
  await db.sql`truncate idem_probe`;
});

describe('Idempotency-Key on execute()', () => {
  test('a retry replays the stored status and body; the operation ran once', async () => {
    const first = await run('k-replay');
    expect(first).toMatchObject({ status: 201, replayed: false });
    const again = await run('k-replay');
    expect(again).toEqual({ ...first, replayed: true } as Executed);
    expect(again.body).toBe(first.body);
    expect(idempotencyHeaders(again)).toEqual({ 'idempotent-replayed': 'true' });
    expect(idempotencyHeaders(first)).toEqual({});
    expect(await executions()).toBe(1);
    const [row] = await keyRow('k-replay');
    expect(row).toMatchObject({ state: 'done', response_status: 201, response_body: first.body, user_id: BigInt(ann.userId), operation: 'make_note' });
    // Kept for the configured time (48 h by default, never under 24 h).
    const hours = (row.expires_at.getTime() - row.created_at.getTime()) / 3_600_000;
    expect(Math.round(hours)).toBe(48);
  });

  test('the structured-field form and the bare form are the same key', async () => {
    const bare = await run('same-key');
    const quoted = await run('"same-key"');
    expect(quoted.replayed).toBe(true);
    expect(quoted.body).toBe(bare.body);
    expect(parseIdempotencyHeader('"a \\"quoted\\" \\\\ key"')).toBe('a "quoted" \\ key');
    expect(await executions()).toBe(1);
  });

  test('the same key with a different body or path is 422 and runs nothing', async () => {
    await run('k-mismatch');
    for (const input of [
      { thing: 'a', note: 'other' },
      { thing: 'b', note: 'hello' },
    ]) {
      const e = await failure(run('k-mismatch', input));
      expect(e).toBeInstanceOf(DomainError);
      expect(e.kind).toBe('unprocessable');
      expect(e.message).toContain('Idempotency-Key');
    }
    expect(await executions()).toBe(1);
  });

  test('without a key the operation runs every time', async () => {
    const a = await run(undefined);
    const b = await run(undefined);
    expect(a.replayed).toBeUndefined();
    expect(a.status).toBeUndefined();
    expect(a.body).not.toBe(b.body);
    expect(await executions()).toBe(2);
  });

  test('a retry while the first request runs is 409 with Retry-After; afterwards it replays', async () => {
    const g = holdHandler();
    const first = run('k-race');
    await g.entered;
    const busy = await failure(run('k-race'));
    expect(busy.kind).toBe('conflict');
    expect(busy.code).toBe('idempotency_request_in_flight');
    expect(busy.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(errorHeaders(busy)).toEqual({ 'retry-after': String(busy.retryAfterSeconds) });
    expect(idempotencyHeaders(busy)).toEqual({});
    // A different body is refused as a mismatch even while the first one runs.
    expect((await failure(run('k-race', { thing: 'a', note: 'changed' }))).kind).toBe('unprocessable');
    expect((await keyRow('k-race'))[0].state).toBe('in_flight');
    g.release();
    const done = await first;
    expect((await run('k-race')).body).toBe(done.body);
    expect(await executions()).toBe(1);
  });

  test('20 concurrent retries with one key: the operation runs exactly once', async () => {
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => run('k-twenty')));
    expect(await executions()).toBe(1);
    const ok = results.filter((r): r is PromiseFulfilledResult<Executed> => r.status === 'fulfilled').map((r) => r.value);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as DomainError);
    expect(ok.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(ok.map((r) => r.body)).size).toBe(1);
    expect(refused.every((e) => e instanceof DomainError && e.kind === 'conflict')).toBe(true);
    expect(ok.length + refused.length).toBe(20);
  });

  test('20 concurrent retries while the first is held: one runs, 19 are told to wait', async () => {
    const g = holdHandler();
    const first = run('k-held');
    await g.entered;
    const rest = await Promise.allSettled(Array.from({ length: 19 }, () => run('k-held')));
    expect(rest.every((r) => r.status === 'rejected' && (r.reason as DomainError).kind === 'conflict')).toBe(true);
    g.release();
    await first;
    expect(await executions()).toBe(1);
  });

  test('an expired key counts as new, whatever body it had', async () => {
    const first = await run('k-expired');
    await db.sql`update idempotency_keys set expires_at = now() - interval '1 second' where key = 'k-expired'`;
    const second = await run('k-expired', { thing: 'a', note: 'a new request' });
    expect(second.replayed).toBe(false);
    expect(second.body).not.toBe(first.body);
    expect(await executions()).toBe(2);
    expect((await run('k-expired', { thing: 'a', note: 'a new request' })).replayed).toBe(true);
  });

  test('an in-flight key whose lease passed (the attempt died) is taken over; the old attempt cannot overwrite it', async () => {
    const g = holdHandler();
    const stale = run('k-crash');
    await g.entered;
    gate = null; // the held attempt keeps waiting; the takeover below runs through
    // The first attempt stops renewing its lease, as a crashed process would.
    await db.sql`update idempotency_keys set locked_until = now() - interval '1 second' where key = 'k-crash'`;
    // Another body is still a mismatch, lease or not.
    expect((await failure(run('k-crash', { thing: 'a', note: 'other' }))).kind).toBe('unprocessable');
    const takeover = await run('k-crash');
    expect(takeover.replayed).toBe(false);
    g.release();
    const late = await stale;
    expect(late.body).not.toBe(takeover.body);
    // The stored response is the attempt that held the key when it finished.
    expect((await run('k-crash')).body).toBe(takeover.body);
    expect(await executions()).toBe(2);
  });

  test('keys are scoped per account and per operation', async () => {
    const a = await run('k-shared');
    const b = await run('k-shared', undefined, { who: bob });
    expect(b.replayed).toBe(false);
    expect(b.body).not.toBe(a.body);
    const other = await run('k-shared', undefined, { op: otherOp });
    expect(other.replayed).toBe(false);
    expect(await executions()).toBe(2);
    expect(await executions('other_note')).toBe(1);
    expect((await run('k-shared', undefined, { who: bob })).body).toBe(b.body);
  });

  test('a domain error the operation answered is stored and replayed as the same problem', async () => {
    mode = 'domain';
    const first = await failure(run('k-domain'));
    expect(first.kind).toBe('not_found');
    mode = 'ok';
    const again = await failure(run('k-domain'));
    expect(again).toBeInstanceOf(DomainError);
    expect({ kind: again.kind, message: again.message, fields: again.fields }).toEqual({ kind: first.kind, message: first.message, fields: first.fields });
    expect(again.replayed).toBe(true);
    expect(idempotencyHeaders(again)).toEqual({ 'idempotent-replayed': 'true' });
    expect((await keyRow('k-domain'))[0]).toMatchObject({ state: 'done', response_status: 404 });
    expect(await executions()).toBe(0);
  });

  test('an unexpected error or a rate limit stores nothing: the key is released and a retry runs', async () => {
    for (const failing of ['crash', 'rate_limited'] as const) {
      const key = `k-released-${failing}`;
      mode = failing;
      const e = await failure(run(key));
      expect(e instanceof DomainError ? e.kind : 'crash').toBe(failing === 'crash' ? 'crash' : 'rate_limited');
      expect(await keyRow(key)).toHaveLength(0);
      mode = 'ok';
      const retry = await run(key);
      expect(retry.replayed).toBe(false);
    }
    expect(await executions()).toBe(2);
  });

  test('an invalid key is 400 naming the header', async () => {
    for (const bad of ['', '   ', 'x'.repeat(256), 'clé', 'tab\there', '"unterminated', '"a"b"', '""']) {
      const e = await failure(run(bad));
      expect(e.kind).toBe('invalid');
      expect(e.fields).toEqual([expect.objectContaining({ field: 'Idempotency-Key', in: 'header' })]);
    }
    expect((await run('x'.repeat(255))).status).toBe(201);
    expect(await executions()).toBe(1);
  });

  test('a key without an account is refused even on an operation that needs none', async () => {
    const open = defineOperation({ ...noteOp, name: 'open_note', scope: null });
    expect((await failure(execute(open, { thing: 'a', note: 'x' }, ctxOf('k-anon', null)))).kind).toBe('unauthorized');
    expect(await executions()).toBe(0);
  });

  test('only the attempt holding a key can renew its lease', async () => {
    const scope = { userId: ann.userId, operation: 'lease_probe', key: 'k-lease' };
    const first = await claimIdempotencyKey(db.sql, scope, 'h', { leaseSeconds: 30, ttlHours: 24 });
    expect(first.kind).toBe('acquired');
    expect((await claimIdempotencyKey(db.sql, scope, 'h', { leaseSeconds: 30, ttlHours: 24 })).kind).toBe('in_flight');
    await db.sql`update idempotency_keys set locked_until = now() - interval '1 second' where key = 'k-lease'`;
    const second = await claimIdempotencyKey(db.sql, scope, 'h', { leaseSeconds: 30, ttlHours: 24 });
    expect(second.kind).toBe('acquired');
    const attempt = (c: typeof first) => (c.kind === 'acquired' ? c.attempt : '');
    expect(attempt(second)).not.toBe(attempt(first));
    expect(await extendIdempotencyLease(db.sql, scope, attempt(first), 30)).toBe(false);
    await db.sql`update idempotency_keys set locked_until = now() where key = 'k-lease'`;
    expect(await extendIdempotencyLease(db.sql, scope, attempt(second), 30)).toBe(true);
    expect((await keyRow('k-lease'))[0].locked_until.getTime()).toBeGreaterThan(Date.now() + 20_000);
  });

  test('the cleanup deletes expired keys only', async () => {
    await run('k-keep');
    await run('k-old');
    await db.sql`update idempotency_keys set expires_at = now() - interval '1 minute' where key = 'k-old'`;
    expect(await deleteExpiredIdempotencyKeys(db.sql, { batch: 1 })).toBe(1);
    expect(await keyRow('k-old')).toHaveLength(0);
    expect(await keyRow('k-keep')).toHaveLength(1);
  });
});

describe('Idempotency-Key on MCP and in the documents', () => {
  const spec = toolSpecOf(noteOp);
  const deps = { siteUrl: 'http://test', logError: () => {} };

  test('tools of idempotent operations take idempotency_key, which is not operation input', () => {
    // The instructions every client gets at initialize say what a key is and its bounds, once for
    // all write tools; each tool shows the argument and its type.
    expect((spec.inputSchema as any).properties.idempotency_key).toEqual({ type: 'string' });
    expect(INSTRUCTIONS).toContain('idempotency_key: any unique string of 1 to 255 printable ASCII');
    expect(INSTRUCTIONS).toMatch(/a retry with the same key and arguments returns the first result/i);
    expect(validateArguments(spec, { thing: 'a', note: 'n', idempotency_key: 'k' })).toEqual({ thing: 'a', note: 'n' });
    try {
      validateArguments(spec, { thing: 'a', note: 'n', idempotency_key: '' });
      throw new Error('accepted');
    } catch (e) {
      expect((e as DomainError).fields).toEqual([{ field: 'idempotency_key', message: 'must be 1 to 255 characters' }]);
    }
    const plain = toolSpecOf(defineOperation({ ...noteOp, name: 'plain', idempotent: false }));
    expect((plain.inputSchema as any).properties.idempotency_key).toBeUndefined();
    try {
      validateArguments(plain, { thing: 'a', note: 'n', idempotency_key: 'k' });
      throw new Error('accepted');
    } catch (e) {
      expect((e as DomainError).fields).toEqual([{ field: 'idempotency_key', message: 'is not a known field' }]);
    }
  });

  test('the argument and the header are one key: a REST call replays over MCP and back', async () => {
    const rest = await run('k-"surface"');
    const tool = await callTool(spec, { thing: 'a', note: 'hello', idempotency_key: 'k-"surface"' }, ctxOf(undefined), deps);
    expect(tool.isError).toBeUndefined();
    expect(tool.content[0].text).toBe(rest.body);
    const mismatch = await callTool(spec, { thing: 'a', note: 'changed', idempotency_key: 'k-"surface"' }, ctxOf(undefined), deps);
    expect(mismatch.isError).toBe(true);
    expect(JSON.parse(mismatch.content[0].text).status).toBe(422);
    // The argument wins over a header on the same request.
    const fresh = await callTool(spec, { thing: 'a', note: 'hello', idempotency_key: 'k-arg' }, ctxOf('k-"surface"'), deps);
    expect(fresh.content[0].text).not.toBe(rest.body);
    expect(await executions()).toBe(2);
  });

  test('the OpenAPI document describes the header, the replay marker, 409 and 422', () => {
    const doc = buildOpenApi([noteOp], 'http://test') as any;
    const entry = doc.paths['/make_note/{thing}'].post;
    const header = entry.parameters.find((p: any) => p.in === 'header');
    expect(header).toMatchObject({ name: 'Idempotency-Key', required: false });
    expect(header.description).toContain('24 hours');
    expect(entry.responses['201'].headers['Idempotent-Replayed']).toBeDefined();
    expect(entry.responses['409'].headers['Retry-After']).toBeDefined();
    expect(entry.responses['422']).toBeDefined();
    expect(doc.info.description).toContain('Idempotency-Key');
  });
});
