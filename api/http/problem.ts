import { requestIdOf } from './request-id.ts';
import { DomainError, ERROR_CODES, kindOf, type ErrorCode, type ErrorKind, type FieldIssue } from '../../core/errors/index.ts';

/**
 * An RFC 9457 problem. `type` points at a short page on this site explaining the problem kind;
 * `code` is the stable machine code of the condition (core/errors/codes.ts), finer than the kind.
 */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  instance?: string;
  errors?: (FieldIssue & { in?: string })[];
  [extra: string]: unknown;
}

export const PROBLEM_KINDS = {
  validation: {
    status: 400,
    title: 'Invalid request',
    about: "The request did not match the operation's input schema. `errors` lists each offending field with where it was sent (path, query, body or header).",
  },
  'bad-request': { status: 400, title: 'Bad request', about: 'The request could not be read, for example a body that is not JSON.' },
  unauthorized: {
    status: 401,
    title: 'Authentication required',
    about: 'The credential is missing or invalid. Send `Authorization: Bearer <token or API key>`.',
  },
  forbidden: { status: 403, title: 'Forbidden', about: 'The credential is valid but lacks the scope this operation needs.' },
  'not-found': { status: 404, title: 'Not found', about: 'No such resource or path.' },
  conflict: {
    status: 409,
    title: 'Conflict',
    about: 'The request conflicts with the current state, for example the same Idempotency-Key is still being processed.',
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    about: 'The path exists but does not take this method; the Allow header lists the methods it takes.',
  },
  'payload-too-large': { status: 413, title: 'Payload too large', about: 'The request body is larger than the service accepts.' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type', about: 'Request bodies must be application/json.' },
  unprocessable: {
    status: 422,
    title: 'Unprocessable request',
    about: 'The request is well-formed but cannot be processed, for example an Idempotency-Key reused with a different body.',
  },
  'rate-limited': { status: 429, title: 'Too many requests', about: "A rate limit was reached; retry after the Retry-After header's seconds." },
  internal: { status: 500, title: 'Internal error', about: 'Something failed on our side. The request id in the response helps us find it.' },
  'service-unavailable': {
    status: 503,
    title: 'Service unavailable',
    about: "A system the service depends on is unavailable for now; retry after the Retry-After header's seconds when it is sent.",
  },
} as const satisfies Record<string, { status: number; title: string; about: string }>;

export type ProblemKind = keyof typeof PROBLEM_KINDS;

export const isProblemKind = (s: string): s is ProblemKind => Object.hasOwn(PROBLEM_KINDS, s);

/** The problem kind of each domain kind. */
const KIND_BY_DOMAIN: Record<ErrorKind, ProblemKind> = {
  invalid: 'validation',
  not_found: 'not-found',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  conflict: 'conflict',
  too_large: 'payload-too-large',
  rate_limited: 'rate-limited',
  unprocessable: 'unprocessable',
  unavailable: 'service-unavailable',
  internal: 'internal',
};

/** Codes answered with another problem kind (and status) than their domain kind's: reading the request. */
const KIND_BY_CODE: Partial<Record<ErrorCode, ProblemKind>> = {
  bad_request: 'bad-request',
  malformed_json: 'bad-request',
  unsupported_media_type: 'unsupported-media-type',
  method_not_allowed: 'method-not-allowed',
};

/** The problem kind (page under /problems/, and so the status) a code is answered with. */
export const problemKindOf = (code: ErrorCode): ProblemKind => KIND_BY_CODE[code] ?? KIND_BY_DOMAIN[kindOf(code)];

/** The code a problem built from a kind alone carries: the generic one of that kind. */
const CODE_BY_KIND: Record<ProblemKind, ErrorCode> = {
  validation: 'invalid_input',
  'bad-request': 'bad_request',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  'not-found': 'not_found',
  conflict: 'conflict',
  'method-not-allowed': 'method_not_allowed',
  'payload-too-large': 'too_large',
  'unsupported-media-type': 'unsupported_media_type',
  unprocessable: 'unprocessable',
  'rate-limited': 'rate_limited',
  internal: 'internal',
  'service-unavailable': 'unavailable',
};

/** Every code answered with a problem kind, for its page and the OpenAPI document. */
export const codesOfKind = (kind: ProblemKind): ErrorCode[] => (Object.keys(ERROR_CODES) as ErrorCode[]).filter((c) => problemKindOf(c) === kind);

/** A problem of `kind`; its code is `extra.code` when given, else the kind's generic code. */
export function problem(siteUrl: string, kind: ProblemKind, detail: string, extra: Partial<Problem> = {}): Problem {
  const k = PROBLEM_KINDS[kind];
  return { type: `${siteUrl}/problems/${kind}`, title: k.title, status: k.status, detail, code: CODE_BY_KIND[kind], ...extra };
}

/** The problem for a code: its kind, status and title follow from the code. */
export const problemOf = (siteUrl: string, code: ErrorCode, detail: string, extra: Partial<Problem> = {}): Problem =>
  problem(siteUrl, problemKindOf(code), detail, { ...extra, code });

export function problemFromError(siteUrl: string, err: unknown): Problem {
  if (err instanceof DomainError) {
    // Extensions never replace the members RFC 9457 and this service define.
    const p = { ...err.extensions, ...problemOf(siteUrl, err.code, err.message) };
    if (err.fields.length) p.errors = err.fields;
    return p;
  }
  return problem(siteUrl, 'internal', 'An unexpected error occurred.');
}

/** Headers a domain error asks for beyond the problem itself: Retry-After when it names a wait. */
export function errorHeaders(err: unknown): Record<string, string> {
  if (err instanceof DomainError && err.retryAfterSeconds !== undefined) return { 'retry-after': String(Math.max(0, Math.ceil(err.retryAfterSeconds))) };
  return {};
}

/**
 * The problem+json response to `request`: its `instance` is the request id, also sent as
 * X-Request-Id, so the body is written once, complete, and nothing downstream re-reads it.
 */
export function problemResponse(request: Request, p: Problem, headers: Record<string, string> = {}): Response {
  const id = p.instance ?? requestIdOf(request);
  return new Response(JSON.stringify(p.instance ? p : { ...p, instance: id }), {
    status: p.status,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', 'x-request-id': id, ...headers },
  });
}
