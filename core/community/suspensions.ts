import { transaction, type Sql } from '../../sql/db.ts';
import { recordAudit } from '../audit.ts';
import { enqueueMail } from '../mail/outbox.ts';

/**
 * Suspending a person (suspend_user): their sessions end, their API keys, OAuth grants and tokens
 * are revoked, and their votes, reviews, follows and flags stop counting (all kept, so restoring brings
 * them back). The person is told why by mail.
 */
const stateOf = async (sql: Sql, email: string) =>
  (
    await sql`
    select u.id::text, u.email, u.suspended_at, u.suspended_reason,
           (select count(*)::int from sessions s where s.user_id = u.id and s.ended_at is null and s.expires_at > now()) as sessions,
           (select count(*)::int from api_keys k where k.user_id = u.id and k.revoked_at is null) as api_keys,
           (select count(*)::int from oauth_grants g where g.user_id = u.id and g.revoked_at is null) as oauth_grants
    from users u where lower(u.email) = lower(${email})`
  )[0] ?? null;

export type SuspensionOutcome = 'done' | 'not_found' | 'already';

export async function setSuspended(sql: Sql, email: string, reason: string | null, actor: string): Promise<SuspensionOutcome> {
  return transaction(sql, async (tx): Promise<SuspensionOutcome> => {
    const before = await stateOf(tx, email);
    if (!before) return 'not_found';
    const [{ changed }] =
      reason === null ? await tx`select restore_user(${before.id}) as changed` : await tx`select suspend_user(${before.id}, ${reason}) as changed`;
    if (!changed) return 'already';
    await recordAudit(tx, {
      actor,
      action: reason === null ? 'user.restore' : 'user.suspend',
      target: `user:${before.email}`,
      before,
      after: await stateOf(tx, email),
    });
    const [site] = await tx<{ name: string }[]>`select name from sites where is_self`;
    await enqueueMail(tx, {
      to: before.email,
      kind: reason === null ? 'account_restored' : 'account_suspended',
      subject: reason === null ? `Your ${site?.name ?? ''} account is restored` : `Your ${site?.name ?? ''} account is suspended`,
      text:
        reason === null
          ? 'The site team lifted the suspension of your account: sign in again to use it. Your votes, reviews, follows and flags count again.'
          : `The site team suspended your account: you are signed out, your API keys and app connections are revoked, and your votes, reviews, follows and flags no longer count (they are kept).\n\nReason: ${reason}\n\nReply to this mail to ask the team to look again.`,
    });
    await tx`select directory_changed()`;
    return 'done';
  });
}
