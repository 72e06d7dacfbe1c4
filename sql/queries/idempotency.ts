import type { Sql } from '../db.ts';

/** One Idempotency-Key: keys are scoped to the account and the operation. */
export interface IdempotencyScope {
  userId: string;
  operation: string;
  key: string;
}

/**
 * What claiming a key found. `acquired` carries the attempt: the row's created_at as text, which
 * fences later writes so that an attempt whose lease lapsed (and was taken over) cannot
 * overwrite or release the newer attempt's row. It is compared as text cast in SQL
 * (`::text::timestamptz`): a timestamptz parameter would go through a JS Date and lose the
 * microseconds.
 */
export type IdempotencyClaim =
  | { kind: 'acquired'; attempt: string }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'mismatch' }
  | { kind: 'in_flight'; lockedUntil: Date };

interface Row {
  request_hash: string;
  state: 'in_flight' | 'done';
  response_status: number | null;
  response_body: string | null;
  locked_until: Date;
  live: boolean;
  locked: boolean;
}

const where = (sql: Sql, s: IdempotencyScope) => sql`user_id = ${s.userId} and operation = ${s.operation} and key = ${s.key}`;

/**
 * Claims a key for one attempt, or reports why not. The upsert is a single statement, so of any
 * number of concurrent first requests exactly one gets the row. It also replaces an expired row
 * (any body) and takes over an in-flight row whose lease passed (its attempt died), but only for
 * the same request: a different body is a mismatch whatever the row's state.
 * clock_timestamp(), not now(): each attempt's fence must differ even inside one transaction.
 */
export async function claimIdempotencyKey(
  sql: Sql,
  scope: IdempotencyScope,
  requestHash: string,
  opts: { leaseSeconds: number; ttlHours: number },
): Promise<IdempotencyClaim> {
  // A row can vanish or expire between the upsert and the read (released by a failed attempt,
  // swept by the cleanup); the next round then sees the new state.
  for (let round = 0; round < 5; round++) {
    const [won] = await sql<{ attempt: string }[]>`
      insert into idempotency_keys as k (user_id, operation, key, request_hash, state, created_at, locked_until, expires_at)
      values (${scope.userId}, ${scope.operation}, ${scope.key}, ${requestHash}, 'in_flight', clock_timestamp(),
              clock_timestamp() + make_interval(secs => ${opts.leaseSeconds}), clock_timestamp() + make_interval(hours => ${opts.ttlHours}))
      on conflict (user_id, operation, key) do update
        set request_hash = excluded.request_hash, state = 'in_flight', response_status = null, response_body = null,
            created_at = excluded.created_at, locked_until = excluded.locked_until, expires_at = excluded.expires_at
        where k.expires_at <= clock_timestamp()
           or (k.state = 'in_flight' and k.locked_until <= clock_timestamp() and k.request_hash = excluded.request_hash)
      returning created_at::text as attempt`;
    if (won) return { kind: 'acquired', attempt: won.attempt };
    const [row] = await sql<Row[]>`
      select request_hash, state, response_status, response_body, locked_until, expires_at > clock_timestamp() as live,
             locked_until > clock_timestamp() as locked
      from idempotency_keys where ${where(sql, scope)}`;
    if (!row?.live) continue;
    if (row.request_hash !== requestHash) return { kind: 'mismatch' };
    if (row.state === 'done') return { kind: 'replay', status: row.response_status!, body: row.response_body! };
    // In flight with a lapsed lease: the next round's upsert takes it over.
    if (row.locked) return { kind: 'in_flight', lockedUntil: row.locked_until };
  }
  return { kind: 'in_flight', lockedUntil: new Date() };
}

/** Keeps a running attempt's lease alive; false when the attempt no longer holds the key. */
export async function extendIdempotencyLease(sql: Sql, scope: IdempotencyScope, attempt: string, leaseSeconds: number): Promise<boolean> {
  const rows = await sql`
    update idempotency_keys set locked_until = clock_timestamp() + make_interval(secs => ${leaseSeconds})
    where ${where(sql, scope)} and state = 'in_flight' and created_at = ${attempt}::text::timestamptz
    returning 1`;
  return rows.length > 0;
}

/** Stores the final response of an attempt; false when the attempt no longer holds the key. */
export async function completeIdempotencyKey(sql: Sql, scope: IdempotencyScope, attempt: string, status: number, body: string): Promise<boolean> {
  const rows = await sql`
    update idempotency_keys set state = 'done', response_status = ${status}, response_body = ${body}
    where ${where(sql, scope)} and state = 'in_flight' and created_at = ${attempt}::text::timestamptz
    returning 1`;
  return rows.length > 0;
}

/** Forgets an attempt that ended without a final response, so a retry runs afresh. */
export async function releaseIdempotencyKey(sql: Sql, scope: IdempotencyScope, attempt: string): Promise<void> {
  await sql`delete from idempotency_keys where ${where(sql, scope)} and state = 'in_flight' and created_at = ${attempt}::text::timestamptz`;
}

/**
 * Deletes expired keys (claims already ignore them; this keeps the table small). Deletes in
 * batches so one run never holds many row locks; returns how many rows went.
 */
export async function deleteExpiredIdempotencyKeys(sql: Sql, opts: { batch?: number } = {}): Promise<number> {
  const batch = opts.batch ?? 10_000;
  let total = 0;
  for (;;) {
    const rows = await sql`
      delete from idempotency_keys where ctid in (
        select ctid from idempotency_keys where expires_at <= now() limit ${batch} for update skip locked)
      returning 1`;
    total += rows.length;
    if (rows.length < batch) return total;
  }
}
