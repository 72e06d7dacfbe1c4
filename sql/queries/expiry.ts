import type { Sql } from '../db.ts';
import { deleteExpiredIdempotencyKeys } from './idempotency.ts';

/**
 * Deletes records whose life is over: idempotency keys past their TTL, and sign-in links,
 * sessions, authorization codes and OAuth tokens a day after they expired or ended (the day's
 * grace keeps them explainable in support questions; none of them works after expiry anyway), and
 * registered OAuth clients unused for UNUSED_CLIENT_DAYS.
 */
/**
 * Dynamically registered OAuth clients (RFC 7591) that nobody used: registration is open to
 * anyone, so a client no person ever granted access to within this many days is deleted. A
 * client with a grant (even a revoked one) stays: its person may look it up in their account.
 */
export const UNUSED_CLIENT_DAYS = 7;

export async function deleteExpiredRecords(sql: Sql): Promise<Record<string, number>> {
  const count = async (q: PromiseLike<{ length: number }>) => (await q).length;
  return {
    idempotency_keys: await deleteExpiredIdempotencyKeys(sql),
    login_links: await count(sql`delete from login_links where expires_at < now() - interval '1 day' returning 1`),
    sessions: await count(sql`delete from sessions where least(coalesce(ended_at, expires_at), expires_at) < now() - interval '1 day' returning 1`),
    oauth_codes: await count(sql`delete from oauth_codes where expires_at < now() - interval '1 day' returning 1`),
    oauth_tokens: await count(sql`delete from oauth_tokens where expires_at < now() - interval '1 day' returning 1`),
    oauth_clients: await count(sql`
      delete from oauth_clients c where c.kind = 'registered' and c.created_at < now() - make_interval(days => ${UNUSED_CLIENT_DAYS})
        and not exists (select 1 from oauth_grants g where g.client_id = c.client_id) returning 1`),
    // A vote's signals are kept 400 days, long enough to judge a year of launches; the vote stays.
    vote_signals: (await sql<{ n: number }[]>`select purge_vote_signals() as n`)[0].n,
  };
}
