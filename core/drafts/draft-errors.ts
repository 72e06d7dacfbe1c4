// The domain errors of the draft operations; the edge maps them to 404, 409 and 400.
import { conflict, notFound } from '../errors/index.ts';

export { invalidFields } from '../errors/index.ts';

/** Another account's draft is "not found" too: drafts are private to their owner. */
export const missingDraft = (id: string) => notFound(`No draft ${id} of yours.`);

export const draftConflict = conflict;
