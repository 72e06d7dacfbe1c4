// Reading and locking the caller's own draft, for the draft operations.
import { type Sql, transaction } from '../../sql/db.ts';
import { draftById, findDraft, type DraftRow } from './store.ts';
import { loadDraftView, type DraftView } from './view.ts';
import { missingDraft } from './draft-errors.ts';

/** Who acts on a draft: the signed-in user on this deployment's site. */
export interface DraftOwner {
  sql: Sql;
  userId: string;
  siteId: number;
}

/** The caller's draft as get_draft shows it. */
export async function ownDraftView(owner: DraftOwner, id: string): Promise<DraftView> {
  const row = await findDraft(owner.sql, id, owner);
  if (!row) throw missingDraft(id);
  return loadDraftView(owner.sql, row);
}

/** A draft as get_draft shows it, read by id alone: for the answer after its owner's write. */
export async function draftViewById(sql: Sql, id: string): Promise<DraftView> {
  const row = await draftById(sql, id);
  if (!row) throw missingDraft(id);
  return loadDraftView(sql, row);
}

/** Runs work in one transaction that holds the lock on the caller's draft row. */
export function withOwnDraftLocked<T>(owner: DraftOwner, id: string, work: (t: Sql, row: DraftRow) => Promise<T>): Promise<T> {
  return transaction(owner.sql, async (t) => {
    const row = await findDraft(t, id, owner, { forUpdate: true });
    if (!row) throw missingDraft(id);
    return work(t, row);
  }) as Promise<T>;
}
