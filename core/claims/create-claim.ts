// claim_listing: a pending claim with what to publish; for the e-mail method, the link is mailed
// (to an address at the listing's domain) in the same transaction.
import { randomBytes } from 'node:crypto';
import { transaction, type Sql } from '../../sql/db.ts';
import { conflict, DomainError, invalidFields, notFound } from '../errors/index.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { hashSecret, newSecret, SECRET_PREFIX } from '../auth/secrets.ts';
import { CLAIM_TTL_DAYS, claimDomain, emailAtDomain, type ClaimMethod } from './instructions.ts';
import { ownClaim, type ClaimView } from './store.ts';
import { isSharedHost } from '../listings/product-key.ts';

export interface Claimant {
  sql: Sql;
  userId: string;
  /** The account's address: claim mails name who asked. */
  email: string;
  siteId: number;
  siteName: string;
  siteUrl: string;
}

export async function createClaim(who: Claimant, input: { slug: string; method: ClaimMethod; email?: string }): Promise<ClaimView> {
  const id = await transaction(who.sql, async (t) => {
    // Drafts are on no public page: they cannot be claimed (the same 404 as an unknown slug).
    // A co-owner may claim, to become an owner by proving control.
    const [l] = await t<{ id: number; name: string; domain: string; mine: boolean }[]>`
      select l.id::int, l.name, l.domain,
             (l.owner_user_id = ${who.userId}::bigint or exists (select 1 from company_owners co
               where co.company_id = l.company_id and co.user_id = ${who.userId}::bigint and co.role = 'owner')) as mine
      from listings l where l.site_id = ${who.siteId} and l.slug = ${input.slug} and l.status <> 'draft'`;
    if (!l) throw notFound(`No listing with slug "${input.slug}" on this site.`);
    // On a hosting platform the domain's DNS and mailboxes are the platform's, not the product's.
    if ((input.method === 'dns' || input.method === 'email') && isSharedHost(l.domain)) {
      throw invalidFields([
        {
          field: 'method',
          message: `cannot be ${input.method} for a product on a shared host (${claimDomain(l.domain)}): its DNS and mail belong to the host; use meta or file`,
        },
      ]);
    }
    if (input.method === 'email') {
      if (!input.email) throw invalidFields([{ field: 'email', message: 'is required for method email' }]);
      if (!emailAtDomain(input.email, l.domain))
        throw invalidFields([{ field: 'email', message: `must be an address at ${claimDomain(l.domain)} or one of its subdomains` }]);
    } else if (input.email !== undefined) {
      throw invalidFields([{ field: 'email', message: 'is only for method email' }]);
    }
    if (l.mine) throw conflict('already_owner', `You already own ${l.name}.`);
    if (input.method === 'email') await capClaimMails(t, l.id, input.email!);
    const token = randomBytes(24).toString('base64url');
    const link = input.method === 'email' ? newSecret(SECRET_PREFIX.claimLink) : null;
    const [c] = await t<{ id: number }[]>`
      insert into claims (listing_id, user_id, method, email, token, link_hash, expires_at)
      values (${l.id}, ${who.userId}::bigint, ${input.method}, ${input.email ?? null}, ${token}, ${link ? hashSecret(link) : null},
              now() + make_interval(days => ${CLAIM_TTL_DAYS}))
      returning id::int`;
    if (link) {
      const url = `${who.siteUrl}/claims/confirm/${link}`;
      await enqueueMail(t, {
        to: input.email!,
        kind: 'claim_link',
        subject: `Confirm your claim of ${l.name} on ${who.siteName}`,
        text:
          `The account ${who.email} on ${who.siteName} asked to manage the listing of ${l.name} there, and named this address (${input.email}) as proof that it speaks for ${claimDomain(l.domain)}.\n\n` +
          `If you confirm, ${who.email} becomes a co-owner of the listing: it can edit the listing's text, links and FAQs. ` +
          'It does not become its only owner, and the current owner keeps the listing.\n\n' +
          `To confirm, open this link and press "Confirm claim" (it works until the claim expires in ${CLAIM_TTL_DAYS} days):\n\n${url}\n\n` +
          `If you do not know ${who.email}, ignore this mail: nothing happens until the button is pressed.`,
      });
    }
    return c.id;
  });
  return ownClaim(who.sql, who.userId, id);
}

/** Claim mails an address, and a listing, gets in a day: as for co-founder invites. */
export const CLAIM_MAILS_PER_DAY = 3;

/** Refuses a claim mail past the day's cap, with the seconds until the oldest of the day's mails ages out. */
async function capClaimMails(t: Sql, listingId: number, email: string): Promise<void> {
  // Serialises claim mails to one listing and to one address, so concurrent claims cannot pass the cap together.
  await t`select pg_advisory_xact_lock(hashtext('claim-mails'), ${listingId}::int)`;
  await t`select pg_advisory_xact_lock(hashtext('claim-mails-to'), hashtext(lower(${email})))`;
  const [row] = await t<{ to_address: number; to_listing: number; wait: number | null }[]>`
    with recent as (
      select listing_id, email, created_at from claims
      where method = 'email' and created_at > now() - interval '1 day' and (listing_id = ${listingId} or lower(email) = lower(${email})))
    select count(*) filter (where lower(email) = lower(${email}))::int as to_address,
           count(*) filter (where listing_id = ${listingId})::int as to_listing,
           ceil(extract(epoch from min(created_at) + interval '1 day' - now()))::int as wait
    from recent`;
  const retryAfterSeconds = Math.max(1, row.wait ?? 1);
  if (row.to_address >= CLAIM_MAILS_PER_DAY) {
    throw new DomainError(
      'claim_mail_daily_limit',
      `${email} was already sent ${row.to_address} claim mails in the last day, the most a day allows; try again later.`,
      {
        retryAfterSeconds,
      },
    );
  }
  if (row.to_listing >= CLAIM_MAILS_PER_DAY) {
    throw new DomainError(
      'claim_mail_daily_limit',
      `This listing's domain was already sent ${row.to_listing} claim mails in the last day, the most a day allows; try again later.`,
      {
        retryAfterSeconds,
      },
    );
  }
}
