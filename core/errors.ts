// Domain errors: code below the edge throws these; the edge alone maps them to HTTP problems.
export interface FieldIssue { field: string; message: string }

export class DomainError extends Error {
  constructor(readonly kind: 'invalid' | 'not_found' | 'unauthorized' | 'forbidden' | 'conflict' | 'too_large' | 'rate_limited' | 'unprocessable',
              message: string, readonly fields: FieldIssue[] = []) {
    super(message);
  }
}

export const invalid = (message: string, fields: FieldIssue[] = []) => new DomainError('invalid', message, fields);
export const notFound = (message: string) => new DomainError('not_found', message);

/** A 400 naming every offending field, worded the same wherever input is checked. */
export const invalidFields = (issues: FieldIssue[]) =>
  invalid(`Invalid input: ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}`, issues);

export const conflict = (message: string) => new DomainError('conflict', message);
