// Domain errors: code below the edge throws these; the edge alone maps them to HTTP problems.
// Each carries a stable machine `code` (codes.ts) and its kind; metadata such as retry-after is a
// typed field set at construction, never attached afterwards.
import { kindOf, type ErrorCode, type ErrorKind } from './codes.ts';

export { ERROR_CODES, GENERIC_CODE, isErrorCode, kindOf, type ErrorCode, type ErrorKind } from './codes.ts';

export interface FieldIssue {
  field: string;
  message: string;
}

/**
 * How a field is named in a problem: object keys joined by dots, array positions in brackets
 * (`items[2].week`, `faqs[0].question`), whichever way the code that found the issue wrote it.
 */
export const fieldPath = (dotted: string): string => dotted.replace(/\.(\d+)(?=\.|\[|$)/g, '[$1]');

export interface DomainErrorOptions {
  fields?: FieldIssue[];
  /** Seconds a client should wait before trying again (conflicts in flight, rate limits, outages). */
  retryAfterSeconds?: number;
  /** Extra members of the problem (RFC 9457 extensions), for what a client needs to act on it. */
  extensions?: Record<string, unknown>;
}

export class DomainError extends Error {
  readonly kind: ErrorKind;
  readonly fields: FieldIssue[];
  readonly retryAfterSeconds: number | undefined;
  readonly extensions: Record<string, unknown>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    opts: DomainErrorOptions = {},
  ) {
    super(message);
    this.kind = kindOf(code);
    this.fields = (opts.fields ?? []).map((f) => ({ ...f, field: fieldPath(f.field) }));
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.extensions = opts.extensions ?? {};
  }
}

export const invalid = (message: string, fields: FieldIssue[] = [], code: ErrorCode = 'invalid_input') => new DomainError(code, message, { fields });
export const notFound = (message: string, code: ErrorCode = 'not_found') => new DomainError(code, message);

/** A 400 naming every offending field, worded the same wherever input is checked. */
export const invalidFields = (issues: FieldIssue[], code: ErrorCode = 'invalid_input') =>
  invalid(`Invalid input: ${issues.map((i) => `${fieldPath(i.field)} ${i.message}`).join('; ')}`, issues, code);

export const conflict = (code: ErrorCode, message: string, opts: DomainErrorOptions = {}) => new DomainError(code, message, opts);
