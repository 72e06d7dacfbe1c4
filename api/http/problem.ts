import { DomainError, type FieldIssue } from '../../core/errors/index.ts';

/** An RFC 9457 problem. `type` points at a short page on this site explaining the problem kind. */
export interface Problem {
  type: string; title: string; status: number; detail: string; instance?: string;
  errors?: (FieldIssue & { in?: string })[];
  [extra: string]: unknown;
}

export const PROBLEM_KINDS: Record<string, { status: number; title: string; about: string }> = {
  validation: { status: 400, title: 'Invalid request', about: 'The request did not match the operation\'s input schema. `errors` lists each offending field with where it was sent (path, query, body or header).' },
  'bad-request': { status: 400, title: 'Bad request', about: 'The request could not be read, for example a body that is not JSON.' },
  unauthorized: { status: 401, title: 'Authentication required', about: 'The credential is missing or invalid. Send `Authorization: Bearer <token or API key>`.' },
  forbidden: { status: 403, title: 'Forbidden', about: 'The credential is valid but lacks the scope this operation needs.' },
  'not-found': { status: 404, title: 'Not found', about: 'No such resource or path.' },
  'method-not-allowed': { status: 405, title: 'Method not allowed', about: 'The path exists but not with this method; see the Allow header.' },
  conflict: { status: 409, title: 'Conflict', about: 'The request conflicts with the current state, for example the same Idempotency-Key is still being processed.' },
  'payload-too-large': { status: 413, title: 'Payload too large', about: 'The request body is larger than the service accepts.' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type', about: 'Request bodies must be application/json.' },
  unprocessable: { status: 422, title: 'Unprocessable request', about: 'The request is well-formed but cannot be processed, for example an Idempotency-Key reused with a different body.' },
  'rate-limited': { status: 429, title: 'Too many requests', about: 'A rate limit was reached; retry after the Retry-After header\'s seconds.' },
  unavailable: { status: 503, title: 'Service unavailable', about: 'A system the service depends on (e.g. the payment provider) could not be reached; nothing was changed. Retry after the Retry-After header\'s seconds.' },
  internal: { status: 500, title: 'Internal error', about: 'Something failed on our side. The request id in the response helps us find it.' },
};

const KIND_BY_DOMAIN: Record<DomainError['kind'], string> = {
  invalid: 'validation', not_found: 'not-found', unauthorized: 'unauthorized', forbidden: 'forbidden',
  conflict: 'conflict', too_large: 'payload-too-large', rate_limited: 'rate-limited', unprocessable: 'unprocessable',
  unavailable: 'unavailable',
};

export function problem(siteUrl: string, kind: keyof typeof PROBLEM_KINDS | string, detail: string, extra: Partial<Problem> = {}): Problem {
  const k = PROBLEM_KINDS[kind] ?? PROBLEM_KINDS.internal;
  return { type: `${siteUrl}/problems/${kind}`, title: k.title, status: k.status, detail, ...extra };
}

export function problemFromError(siteUrl: string, err: unknown): Problem {
  if (err instanceof DomainError) {
    const p = problem(siteUrl, KIND_BY_DOMAIN[err.kind], err.message, { code: err.code });
    if (err.fields.length) p.errors = err.fields;
    return p;
  }
  return problem(siteUrl, 'internal', 'An unexpected error occurred.');
}

export function problemResponse(p: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(p), {
    status: p.status,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...headers },
  });
}
