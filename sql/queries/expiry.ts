import type { Sql } from '../db.ts';
import { deleteExpiredIdempotencyKeys } from './idempotency.ts';

/**
 * Deletes records whose life is over: idempotency keys past their TTL, and sign-in links,
 * sessions, authorization codes and OAuth tokens a day after they expired or ended (the day's
 * grace keeps them explainable in support questions; none of them works after expiry anyway).
 */
export async function deleteExpiredRecords(sql: Sql): Promise<Record<string, number>> {
  const count = async (q: PromiseLike<{ length: number }>) => (await q).length;
  return {
    idempotency_keys: await deleteExpiredIdempotencyKeys(sql),
    login_links: await count(sql`delete from login_links where expires_at < now() - interval '1 day' returning 1`),
    sessions: await count(sql`delete from sessions where least(coalesce(ended_at, expires_at), expires_at) < now() - interval '1 day' returning 1`),
    oauth_codes: await count(sql`delete from oauth_codes where expires_at < now() - interval '1 day' returning 1`),
    oauth_tokens: await count(sql`delete from oauth_tokens where expires_at < now() - interval '1 day' returning 1`),
  };
}
