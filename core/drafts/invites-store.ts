// Co-founder invites of a draft: a single-use e-mailed link for the invitee to add their own
// founder profile. Only the token's SHA-256 is stored.
import type { Sql } from '../../sql/db.ts';
import { conflict, DomainError } from '../errors/index.ts';
import { hashSecret, newSecret, SECRET_PREFIX } from '../auth/secrets.ts';

export const INVITES_MAX = 10;
export const INVITE_TTL_DAYS = 14;
/** Invite mails one person may send in 24 hours, over all their drafts (an invite mail goes to any address). */
export const INVITES_PER_DAY = 20;
/** Invite mails one address may receive in 24 hours, from anyone (re-sending a link sends a mail too). */
export const INVITE_MAILS_PER_ADDRESS_PER_DAY = 3;

export interface InviteRow {
  id: number;
  email: string;
  status: 'pending' | 'accepted' | 'expired';
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
}

const STATUS = (sql: Sql) => sql`case when accepted_at is not null then 'accepted' when expires_at <= now() then 'expired' else 'pending' end`;

export async function listInvites(sql: Sql, draftId: string): Promise<InviteRow[]> {
  return sql<InviteRow[]>`
    select id::int, email, ${STATUS(sql)} as status, created_at, expires_at, accepted_at
    from draft_invites where draft_id = ${draftId} order by created_at, id`;
}

/**
 * Invites an address (the draft row must be locked by the caller, so the count cannot race).
 * Inviting the same address again sends a fresh link (the old one stops working) and does not
 * count twice; at most INVITES_MAX addresses per draft; an accepted invite is not sent again.
 */
export async function createInvite(sql: Sql, i: { draftId: string; email: string; invitedBy: string }): Promise<InviteRow & { token: string }> {
  const [existing] = await sql<{ id: number; accepted: boolean }[]>`
    select id::int, accepted_at is not null as accepted from draft_invites where draft_id = ${i.draftId} and lower(email) = lower(${i.email})`;
  if (existing?.accepted) throw conflict('invite_already_accepted', `${i.email} has already accepted an invite to this draft.`);
  if (!existing) {
    const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from draft_invites where draft_id = ${i.draftId}`;
    if (n >= INVITES_MAX) throw conflict('invite_limit_reached', `A draft has at most ${INVITES_MAX} co-founder invites; this one has ${n}.`);
  }
  // Mail to any address on a person's behalf: capped per person per day, over all their drafts.
  // The advisory lock serialises one person's invites across drafts (the draft lock covers one).
  await sql`select pg_advisory_xact_lock(hashtext('draft-invites'), hashtext(${i.invitedBy}::text))`;
  const [{ sent, toAddress }] = await sql<{ sent: number; toAddress: number }[]>`
    select (select count(*)::int from draft_invites where invited_by = ${i.invitedBy} and created_at > now() - interval '1 day') as sent,
           (select count(*)::int from mail_outbox where kind = 'cofounder_invite' and lower(to_address) = lower(${i.email})
              and created_at > now() - interval '1 day') as "toAddress"`;
  if (sent >= INVITES_PER_DAY)
    throw new DomainError('invite_daily_limit', `You sent ${sent} invites in the last day, the most a day allows; try again tomorrow.`);
  if (toAddress >= INVITE_MAILS_PER_ADDRESS_PER_DAY) {
    throw new DomainError('invite_daily_limit', `${i.email} was sent ${toAddress} invites in the last day, the most a day allows; try again tomorrow.`);
  }
  const token = newSecret(SECRET_PREFIX.invite);
  const [row] = await sql<InviteRow[]>`
    insert into draft_invites (draft_id, email, token_hash, invited_by, expires_at)
    values (${i.draftId}, ${i.email}, ${hashSecret(token)}, ${i.invitedBy}, now() + make_interval(days => ${INVITE_TTL_DAYS}))
    on conflict (draft_id, lower(email)) do update set email = excluded.email, token_hash = excluded.token_hash,
      invited_by = excluded.invited_by, created_at = now(), expires_at = excluded.expires_at
    returning id::int, email, 'pending' as status, created_at, expires_at, accepted_at`;
  return { ...row, token };
}

export interface InviteByToken {
  id: number;
  draft_id: string;
  email: string;
  expired: boolean;
  accepted: boolean;
  product: string;
  domain: string;
  inviter_email: string;
}

export async function inviteByToken(sql: Sql, token: string, opts: { forUpdate?: boolean } = {}): Promise<InviteByToken | null> {
  if (!token.startsWith(SECRET_PREFIX.invite) || token.length > 100) return null;
  const [row] = await sql<InviteByToken[]>`
    select i.id::int, i.draft_id::text, i.email, i.expires_at <= now() as expired, i.accepted_at is not null as accepted,
           coalesce(d.fields #>> '{name,value}', d.domain) as product, d.domain, u.email as inviter_email
    from draft_invites i join drafts d on d.id = i.draft_id join users u on u.id = i.invited_by
    where i.token_hash = ${hashSecret(token)}
    ${opts.forUpdate ? sql`for update of i` : sql``}`;
  return row ?? null;
}

export async function markInviteAccepted(sql: Sql, id: number, founder: object, userId: string | null): Promise<void> {
  await sql`update draft_invites set accepted_at = now(), accepted_user_id = ${userId}::bigint, founder = ${sql.json(founder as never)}::jsonb
            where id = ${id}`;
}
