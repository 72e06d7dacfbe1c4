// Coded problems: every code maps to one problem kind and status, and every problem carries a code.
import { expect, test } from 'bun:test';
import { conflict, DomainError, ERROR_CODES, invalidFields, notFound, type ErrorCode } from '../../core/errors/index.ts';
import { codesOfKind, errorHeaders, PROBLEM_KINDS, problem, problemFromError, problemKindOf, type ProblemKind } from './problem.ts';

const SITE = 'https://dir.test';

test('a domain error becomes a problem with its code, kind and fields', () => {
  expect(problemFromError(SITE, invalidFields([{ field: 'name', message: 'is required' }]))).toEqual({
    type: `${SITE}/problems/validation`,
    title: 'Invalid request',
    status: 400,
    code: 'invalid_input',
    detail: 'Invalid input: name is required',
    errors: [{ field: 'name', message: 'is required' }],
  });
  expect(problemFromError(SITE, notFound('No draft x of yours.'))).toMatchObject({ status: 404, code: 'not_found' });
  expect(problemFromError(SITE, conflict('invite_limit_reached', 'At most 10.'))).toMatchObject({
    status: 409,
    code: 'invite_limit_reached',
    type: `${SITE}/problems/conflict`,
  });
  expect(problemFromError(SITE, new Error('boom'))).toEqual({
    type: `${SITE}/problems/internal`,
    title: 'Internal error',
    status: 500,
    code: 'internal',
    detail: 'An unexpected error occurred.',
  });
});

test('reading the request maps by code: malformed JSON is 400 bad-request, another media type 415', () => {
  expect(problemFromError(SITE, new DomainError('malformed_json', 'The body is not valid JSON.'))).toMatchObject({
    status: 400,
    type: `${SITE}/problems/bad-request`,
    code: 'malformed_json',
  });
  expect(problemFromError(SITE, new DomainError('unsupported_media_type', 'json only'))).toMatchObject({
    status: 415,
    type: `${SITE}/problems/unsupported-media-type`,
    code: 'unsupported_media_type',
  });
});

test('unavailable is a 503 service-unavailable problem with Retry-After when the error names a wait', () => {
  const down = new DomainError('unavailable', 'The payment provider is not answering.', { retryAfterSeconds: 30 });
  expect(problemFromError(SITE, down)).toMatchObject({
    status: 503,
    title: 'Service unavailable',
    type: `${SITE}/problems/service-unavailable`,
    code: 'unavailable',
  });
  expect(errorHeaders(down)).toEqual({ 'retry-after': '30' });
  expect(errorHeaders(new DomainError('unavailable', 'down'))).toEqual({});
  expect(errorHeaders(new Error('x'))).toEqual({});
});

test("a problem built from a kind alone carries that kind's generic code", () => {
  for (const kind of Object.keys(PROBLEM_KINDS) as ProblemKind[]) {
    const p = problem(SITE, kind, 'x');
    expect(ERROR_CODES[p.code]).toBeDefined();
    expect(problemKindOf(p.code)).toBe(kind);
  }
});

test('every code belongs to exactly one problem kind, and every kind has a code', () => {
  const all = (Object.keys(PROBLEM_KINDS) as ProblemKind[]).flatMap((k) => codesOfKind(k));
  expect(all.sort()).toEqual((Object.keys(ERROR_CODES) as ErrorCode[]).sort());
  for (const kind of Object.keys(PROBLEM_KINDS) as ProblemKind[]) expect(codesOfKind(kind).length).toBeGreaterThan(0);
});
