// invite_cofounder: an invite for a co-founder to add their own founder profile, and its e-mail.
import { enqueueMail } from '../mail/outbox.ts';
import { contentOf } from './store.ts';
import { createInvite, INVITE_TTL_DAYS } from './invites-store.ts';
import { withOwnDraftLocked, type DraftOwner } from './own-draft.ts';

export interface Inviter extends DraftOwner {
  /** The inviting user's address, named in the e-mail. */
  email: string;
  siteName: string;
  /** The public root URL the invite link starts with. */
  siteUrl: string;
}

/** A name as one short line: control characters and line breaks become spaces, then cut to 80. */
export const plainName = (s: string): string =>
  s
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80)
    .trim();

/** Writes the invite and queues its e-mail under the draft's row lock (so the invite count cannot race). */
export function inviteCofounder(inviter: Inviter, id: string, email: string) {
  return withOwnDraftLocked(inviter, id, async (t, row) => {
    const invite = await createInvite(t, { draftId: row.id, email: email.trim(), invitedBy: inviter.userId });
    // The mail goes to any address: the only text in it from the inviter is their address and the
    // product's name, and the name is one line of at most 80 characters (no links smuggled in a
    // paragraph, no header injection through the subject).
    const product = plainName((contentOf(row).fields.name?.value as string | null) ?? '') || row.domain;
    const link = `${inviter.siteUrl}/invites/${invite.token}`;
    await enqueueMail(t, {
      to: invite.email,
      kind: 'cofounder_invite',
      subject: `Add your founder profile to ${product} on ${inviter.siteName}`,
      text: [
        `${inviter.email} is listing ${product} (${row.domain}) on ${inviter.siteName} and invited you as a co-founder.`,
        '',
        `Add your own founder profile (name, role and a short bio) here: ${link}`,
        '',
        `The link works once and expires in ${INVITE_TTL_DAYS} days. If you don't know this product, ignore this e-mail.`,
      ].join('\n'),
    });
    return {
      id: invite.id,
      draft_id: row.id,
      email: invite.email,
      status: 'pending' as const,
      created_at: invite.created_at.toISOString(),
      expires_at: invite.expires_at.toISOString(),
    };
  });
}
