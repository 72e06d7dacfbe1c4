import { createHash } from 'node:crypto';
import { DomainError, GENERIC_CODE, isErrorCode, type FieldIssue } from '../../core/errors/index.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  extendIdempotencyLease,
  releaseIdempotencyKey,
  type IdempotencyScope,
} from '../../sql/queries/idempotency.ts';
import type { Operation, OperationContext } from '../registry/operation.ts';
import { problemFromError } from './problem.ts';

/**
 * Idempotency-Key (draft-ietf-httpapi-idempotency-key-header) for operations marked idempotent.
 * A key is scoped to the account and the operation; the request fingerprint is a hash of the
 * validated input (path, query and body), so REST and MCP calls with the same key and input
 * are the same request. Final responses are stored: successes and the domain errors the
 * operation answered (4xx), replayed as they were. Nothing is stored for a failure on our side
 * (5xx) or a rate limit: the key is released and a retry runs afresh.
 */

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Response header on a replayed response (the name Stripe and others use; the draft names none). */
export const REPLAYED_HEADER = 'idempotent-replayed';
/** MCP tool argument carrying the key, for agents whose client cannot set request headers. */
export const IDEMPOTENCY_ARGUMENT = 'idempotency_key';

/** How long an attempt holds its key without a heartbeat; a crashed attempt frees it after this. */
const LEASE_SECONDS = 30;
const HEARTBEAT_MS = 10_000;
/** Operations finish in well under a second, so a concurrent retry should come back soon. */
const RETRY_AFTER_SECONDS = 1;

/** Why a key is not acceptable, or null: 1 to 255 printable ASCII characters. */
export function keyProblem(key: unknown): string | null {
  if (typeof key !== 'string') return 'must be a string';
  if (key.length < 1 || key.length > 255) return 'must be 1 to 255 characters';
  if (!/^[\x20-\x7e]+$/.test(key)) return 'must contain printable ASCII characters only';
  return null;
}

const badHeader = (message: string) => {
  const issue: FieldIssue & { in: 'header' } = { field: IDEMPOTENCY_HEADER, in: 'header', message };
  return new DomainError('invalid_input', `Invalid input: ${IDEMPOTENCY_HEADER} ${message}`, { fields: [issue] });
};

// The draft makes the header an RFC 8941 sf-string ("..."), while most clients send the bare
// value (Stripe style); both are accepted. The sf-string grammar is two lines, hand-written
// rather than adding a structured-fields package for it.
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;

/** The key in an Idempotency-Key header value; 400 naming the header when it is not valid. */
export function parseIdempotencyHeader(raw: string): string {
  const value = raw.trim();
  let key = value;
  if (value.startsWith('"')) {
    const m = SF_STRING.exec(value);
    if (!m) throw badHeader('must be a quoted string ("...") of printable ASCII, or the bare value');
    key = m[1].replace(/\\(["\\])/g, '$1');
  }
  const problem = keyProblem(key);
  if (problem) throw badHeader(problem);
  return key;
}

/** A key as an sf-string header value: how an MCP argument is handed on as if it were the header. */
export const toHeaderValue = (key: string) => `"${key.replace(/[\\"]/g, '\\$&')}"`;

export interface IdempotentOutcome {
  body: string;
  status: number;
  replayed: boolean;
}

/** A failure the operation answered earlier, answered again for a replayed key: the same problem, marked as a replay. */
export class ReplayedError extends DomainError {
  readonly replayed = true;
}

/**
 * The replay marker header for an execute() result or a thrown error. (Retry-After of a request
 * still in flight is the error's own retryAfterSeconds, sent for every domain error.)
 */
export function idempotencyHeaders(x: unknown): Record<string, string> {
  const replayed = typeof x === 'object' && x !== null && 'replayed' in x && x.replayed === true;
  return replayed ? { [REPLAYED_HEADER]: 'true' } : {};
}

/** A stored failure; rows written before codes existed carry only the kind. */
interface StoredError {
  code?: string;
  kind: DomainError['kind'];
  message: string;
  fields: FieldIssue[];
}

/** Heartbeat that keeps the lease while the operation runs (a long handler is not a dead one). */
function holdLease(ctx: OperationContext, scope: IdempotencyScope, attempt: string) {
  let beat: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    beat = extendIdempotencyLease(ctx.sql, scope, attempt, LEASE_SECONDS).catch(() => false);
  }, HEARTBEAT_MS);
  (timer as { unref?: () => void }).unref?.();
  return async () => {
    clearInterval(timer);
    await beat;
  };
}

/**
 * Recording the outcome must not turn an operation that ran into a 500: if the write fails the
 * lease lapses and the key frees itself.
 */
const settle = (write: () => Promise<unknown>) => write().catch(() => {});

/**
 * Runs `run` (the operation, returning its serialised body) at most once per key and request.
 * `fingerprint` is the canonical form of the validated input.
 */
export async function runIdempotent(
  op: Operation,
  ctx: OperationContext,
  rawKey: string,
  fingerprint: string,
  run: () => Promise<string>,
): Promise<IdempotentOutcome> {
  const key = parseIdempotencyHeader(rawKey);
  // Keys belong to an account; every idempotent operation needs a credential anyway.
  if (!ctx.principal) throw new DomainError('credential_required', `${IDEMPOTENCY_HEADER} is kept per account: send a credential with it.`);
  const scope: IdempotencyScope = { userId: ctx.principal.userId, operation: op.name, key };
  const requestHash = createHash('sha256').update(fingerprint).digest('hex');
  const claim = await claimIdempotencyKey(ctx.sql, scope, requestHash, { leaseSeconds: LEASE_SECONDS, ttlHours: ctx.config.idempotencyTtlHours });

  if (claim.kind === 'mismatch') {
    throw new DomainError(
      'idempotency_key_reused',
      `This ${IDEMPOTENCY_HEADER} was already used with a different request to ${op.name}; a key must not be reused with another body. Send a new key for a new request.`,
    );
  }
  if (claim.kind === 'in_flight') {
    throw new DomainError(
      'idempotency_request_in_flight',
      `A request with this ${IDEMPOTENCY_HEADER} is still being processed; retry after the Retry-After seconds to get its response.`,
      { retryAfterSeconds: RETRY_AFTER_SECONDS },
    );
  }
  if (claim.kind === 'replay') {
    if (claim.status >= 400) {
      const stored = JSON.parse(claim.body) as StoredError;
      const code = stored.code && isErrorCode(stored.code) ? stored.code : GENERIC_CODE[stored.kind];
      throw new ReplayedError(code, stored.message, { fields: stored.fields });
    }
    return { body: claim.body, status: claim.status, replayed: true };
  }

  const { attempt } = claim;
  const stopLease = holdLease(ctx, scope, attempt);
  let body: string;
  try {
    body = await run();
  } catch (err) {
    await stopLease();
    // Rate limits and outages are not answers: the key is released so a retry runs again.
    if (err instanceof DomainError && err.kind !== 'rate_limited' && err.kind !== 'unavailable') {
      const stored: StoredError = { code: err.code, kind: err.kind, message: err.message, fields: err.fields };
      const status = problemFromError(ctx.config.siteUrl, err).status;
      await settle(() => completeIdempotencyKey(ctx.sql, scope, attempt, status, JSON.stringify(stored)));
    } else {
      await settle(() => releaseIdempotencyKey(ctx.sql, scope, attempt));
    }
    throw err;
  }
  await stopLease();
  const status = op.status ?? 200;
  await settle(() => completeIdempotencyKey(ctx.sql, scope, attempt, status, body));
  return { body, status, replayed: false };
}
