// The domain errors of the draft operations; the edge maps them to 404, 409 and 400.
import { DomainError, invalid, notFound, type FieldIssue } from '../errors.ts';

/** Another account's draft is "not found" too: drafts are private to their owner. */
export const missingDraft = (id: string) => notFound(`No draft ${id} of yours.`);

export const draftConflict = (message: string) => new DomainError('conflict', message);

/** A 400 naming every offending field, worded as the edge's own validation errors are. */
export const invalidFields = (issues: FieldIssue[]) =>
  invalid(`Invalid input: ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}`, issues);
