// claim_listing: a pending claim with what to publish; for the e-mail method, the link is mailed
// (to an address at the listing's domain) in the same transaction.
import { randomBytes } from 'node:crypto';
import { transaction, type Sql } from '../../sql/db.ts';
import { conflict, invalidFields, notFound } from '../errors/index.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { hashSecret, newSecret, SECRET_PREFIX } from '../auth/secrets.ts';
import { CLAIM_TTL_DAYS, claimDomain, emailAtDomain, type ClaimMethod } from './instructions.ts';
import { ownClaim, type ClaimView } from './store.ts';
import { ownsListing } from '../listings/own-listing.ts';

export interface Claimant {
  sql: Sql;
  userId: string;
  siteId: number;
  siteName: string;
  siteUrl: string;
}

export async function createClaim(who: Claimant, input: { slug: string; method: ClaimMethod; email?: string }): Promise<ClaimView> {
  const id = await transaction(who.sql, async (t) => {
    // Drafts are on no public page: they cannot be claimed (the same 404 as an unknown slug).
    const [l] = await t<{ id: number; name: string; domain: string; mine: boolean }[]>`
      select l.id::int, l.name, l.domain,
             ${ownsListing(t, who.userId)} as mine
      from listings l where l.site_id = ${who.siteId} and l.slug = ${input.slug} and l.status <> 'draft'`;
    if (!l) throw notFound(`No listing with slug "${input.slug}" on this site.`);
    if (input.method === 'email') {
      if (!input.email) throw invalidFields([{ field: 'email', message: 'is required for method email' }]);
      if (!emailAtDomain(input.email, l.domain))
        throw invalidFields([{ field: 'email', message: `must be an address at ${claimDomain(l.domain)} or one of its subdomains` }]);
    } else if (input.email !== undefined) {
      throw invalidFields([{ field: 'email', message: 'is only for method email' }]);
    }
    if (l.mine) throw conflict('already_owner', `You already own ${l.name}.`);
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
          `Someone (hopefully you) asked to become the owner of ${l.name} on ${who.siteName}.\n\n` +
          `To confirm, open this link and press "Confirm claim" (it works until the claim expires in ${CLAIM_TTL_DAYS} days):\n\n${url}\n\n` +
          'If this was not you, ignore this mail: nothing happens until the button is pressed.',
      });
    }
    return c.id;
  });
  return ownClaim(who.sql, who.userId, id);
}
