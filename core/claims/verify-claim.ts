// verify_claim and the mailed link: check what the claimant published, then make them the owner.
import { transaction, type Sql } from '../../sql/db.ts';
import type { SafeFetch } from '../net/ssrf-fetch.ts';
import { readPage } from '../net/read-page.ts';
import { DnsLookupError, type TxtLookup } from '../dns/txt-lookup.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { hashSecret, newSecret, SECRET_PREFIX } from '../auth/secrets.ts';
import { claimDomain, DNS_LABEL, FILE_PATH, META_NAME, verificationValue, type ClaimMethod } from './instructions.ts';
import { claimRows, missingClaim, ownClaim, type ClaimView } from './store.ts';

export interface ClaimChecks extends OwnershipNotice {
  fetcher: SafeFetch;
  txt: TxtLookup;
}
type Outcome = { ok: true } | { ok: false; reason: string; detail: string | null };

// Loaded on the first meta-tag check: cheerio and its parsers are about 25 MB of an edge's memory.
const loadCheerio = () => import('cheerio');

/**
 * Whether the TXT answer holds the value. A record published as several strings is one value once
 * joined (RFC 7208 section 3.3); node:dns joins them, but Bun's resolver answers each string as a
 * record of its own, in order. So any run of consecutive strings that joins to the value counts:
 * whoever can publish those strings at the name controls the domain's DNS either way.
 */
export function txtHolds(values: string[], expected: string): boolean {
  for (let i = 0; i < values.length; i++) {
    let joined = '';
    for (let j = i; j < values.length && joined.length < expected.length + 2; j++) {
      joined += values[j];
      if (joined.trim() === expected) return true;
    }
  }
  return false;
}

async function check(c: { method: ClaimMethod; token: string; domain: string; url: string }, deps: ClaimChecks): Promise<Outcome> {
  const expected = verificationValue(c.token);
  switch (c.method) {
    case 'dns': {
      const name = `${DNS_LABEL}.${claimDomain(c.domain)}`;
      try {
        const values = await deps.txt(name);
        return txtHolds(values, expected)
          ? { ok: true }
          : { ok: false, reason: 'dns_record_mismatch', detail: `TXT records at ${name} do not include ${expected}` };
      } catch (e) {
        if (e instanceof DnsLookupError) return { ok: false, reason: e.reason, detail: e.message };
        return { ok: false, reason: 'dns_unavailable', detail: (e as Error).message };
      }
    }
    case 'meta': {
      const page = await readPage(deps.fetcher, c.url, { html: true, sameHostOnly: true });
      if (!page.ok) return { ok: false, reason: page.reason === 'not_found' ? 'site_error' : page.reason, detail: page.detail };
      const $ = (await loadCheerio()).load(page.text);
      // Only a tag the parser puts in the <head> counts: not one in the body, a comment, <noscript> or <template>.
      const found = $(`head > meta[name="${META_NAME}"]`)
        .toArray()
        .some((m) => ($(m).attr('content') ?? '').trim() === c.token);
      return found
        ? { ok: true }
        : { ok: false, reason: 'meta_tag_not_found', detail: `no <meta name="${META_NAME}" content="${c.token}"> in the <head> of ${c.url}` };
    }
    case 'file': {
      const url = new URL(FILE_PATH, c.url).href;
      const page = await readPage(deps.fetcher, url, { html: false, sameHostOnly: true });
      if (!page.ok) return { ok: false, reason: page.reason === 'not_found' ? 'file_not_found' : page.reason, detail: page.detail };
      return page.text.split(/\r?\n/).some((line) => line.trim() === expected)
        ? { ok: true }
        : { ok: false, reason: 'file_mismatch', detail: `${url} does not contain ${expected}` };
    }
    case 'email':
      return { ok: false, reason: 'email_link_not_opened', detail: 'open the link we mailed and press "Confirm claim"' };
  }
}

/**
 * Marks the claim verified and gives its user the listing, as far as the proof goes: a DNS, meta
 * or file claim against an owner who never proved control makes the claimant the owner; against
 * one who did, or by e-mail, a co-owner. Whoever is affected is told, with a link to dispute it.
 */
async function applyVerified(t: Sql, claimId: number, deps: OwnershipNotice): Promise<void> {
  const [c] = await t<
    {
      listing_id: number;
      user_id: string;
      user_email: string;
      company_id: string;
      name: string;
      domain: string;
      status: string;
      prev: string | null;
      prev_email: string | null;
      prev_proved: boolean;
      method: ClaimMethod;
    }[]
  >`
    with base as (
      select c.listing_id, c.user_id, l.company_id, l.owner_user_id,
             -- someone else who proved control of the company's domain (DNS, meta tag or file)
             (select co.user_id from company_owners co join claims pc on pc.id = co.claim_id
              where co.company_id = l.company_id and co.role = 'owner' and pc.method <> 'email' and co.user_id <> c.user_id
              order by (co.user_id = l.owner_user_id) desc, co.since limit 1) as prover
      from claims c join listings l on l.id = c.listing_id where c.id = ${claimId} for update of c, l)
    select b.listing_id::int, b.user_id::text, cu.email as user_email, b.company_id::text, l.name, l.domain, l.status, c.method,
           coalesce(b.owner_user_id, b.prover)::text as prev, u.email as prev_email, b.prover is not null as prev_proved
    from base b join listings l on l.id = b.listing_id join claims c on c.id = ${claimId} join users cu on cu.id = b.user_id
    left join users u on u.id = coalesce(b.owner_user_id, b.prover)`;
  await t`update claims set status = 'verified', verified_at = now(), checked_at = now(), failure_reason = null, failure_detail = null where id = ${claimId}`;
  const proves = c.method !== 'email';
  const takesOver = proves && !c.prev_proved;
  const role = takesOver ? 'owner' : 'co_owner';
  if (takesOver) await t`update listings set owner_user_id = ${c.user_id}::bigint, updated_at = now() where id = ${c.listing_id}`;
  // A proof upgrades an earlier co-ownership; an e-mail claim never downgrades an owner.
  await t`insert into company_owners (company_id, user_id, claim_id, role) values (${c.company_id}::bigint, ${c.user_id}::bigint, ${claimId}, ${role})
          on conflict (company_id, user_id) do update set role = case when excluded.role = 'owner' then 'owner' else company_owners.role end,
            claim_id = case when excluded.role = 'owner' then excluded.claim_id else company_owners.claim_id end`;
  const [ev] = await t<{ id: string }[]>`
    insert into ownership_events (listing_id, previous_user_id, new_user_id, claim_id, kind)
    values (${c.listing_id}, ${c.prev}::bigint, ${c.user_id}::bigint, ${claimId}, ${takesOver ? 'owner_changed' : 'co_owner_added'}) returning id::text`;
  if (c.prev && c.prev !== c.user_id && c.prev_email) {
    const link = newSecret(SECRET_PREFIX.dispute);
    await t`insert into ownership_disputes (listing_id, event_id, user_id, token_hash, expires_at)
            values (${c.listing_id}, ${ev.id}::bigint, ${c.prev}::bigint, ${hashSecret(link)}, now() + make_interval(days => ${DISPUTE_DAYS}))`;
    const how = METHOD_WORDS[c.method];
    const dispute = `${deps.siteUrl}/claims/dispute/${link}`;
    await enqueueMail(t, {
      to: c.prev_email,
      kind: 'listing_claimed',
      subject: `${c.name} on ${deps.siteName} was claimed: ${takesOver ? 'it has a new owner' : 'it has a new co-owner'}`,
      text: takesOver
        ? `The account ${c.user_email} proved control of ${claimDomain(c.domain)} (${how}) and is now the owner of the listing of ${c.name} on ${deps.siteName}. ` +
          'You had not proved control of the domain, so the listing moved to them; your account no longer manages it.\n\n' +
          `If this is wrong, tell the site team here within ${DISPUTE_DAYS} days (no sign-in needed):\n\n${dispute}\n\n` +
          `To keep a listing, prove control of its domain yourself: claim it with a DNS record, a meta tag or a file.`
        : `The account ${c.user_email} ${proves ? `proved control of ${claimDomain(c.domain)} (${how})` : `confirmed a link mailed to an address at ${claimDomain(c.domain)}`} ` +
          `and is now a co-owner of the listing of ${c.name} on ${deps.siteName}: it can edit the listing. You remain its owner, and you can remove the co-owner ` +
          '(remove_co_owner, or DELETE /api/v1/me/listings/{id}/co-owners/{user_id}).\n\n' +
          `If this is wrong, tell the site team here within ${DISPUTE_DAYS} days (no sign-in needed):\n\n${dispute}`,
    });
  }
  // The verified badge follows a proof of control.
  if (c.status !== 'draft') await t`select directory_changed()`;
}

/** How long the dispute link of an ownership change works. */
export const DISPUTE_DAYS = 30;

const METHOD_WORDS: Record<ClaimMethod, string> = {
  dns: 'a DNS TXT record',
  meta: 'a meta tag on its homepage',
  file: 'a file on its website',
  email: 'a link mailed to an address at the domain',
};

/** What an ownership mail needs to say and link to. */
export interface OwnershipNotice {
  siteName: string;
  siteUrl: string;
}

export async function verifyClaim(sql: Sql, userId: string, id: number, deps: ClaimChecks): Promise<ClaimView> {
  const {
    rows: [row],
  } = await claimRows(sql, userId, { id });
  if (!row) throw missingClaim(id);
  if (row.status !== 'pending') return ownClaim(sql, userId, id);
  const outcome = await check(row, deps); // outside the transaction: a slow site holds no lock
  await transaction(sql, async (t) => {
    const [fresh] = await t<{ status: string; live: boolean }[]>`
      select status, expires_at > now() as live from claims where id = ${id} for update`;
    if (fresh.status !== 'pending' || !fresh.live) return;
    if (outcome.ok) await applyVerified(t, id, deps);
    else
      await t`update claims set checked_at = now(), failure_reason = ${outcome.reason}, failure_detail = ${outcome.detail?.slice(0, 500) ?? null} where id = ${id}`;
  });
  return ownClaim(sql, userId, id);
}

export interface LinkClaim {
  id: number;
  name: string;
  email: string;
  usable: 'ok' | 'verified' | 'expired';
}

/** The claim a mailed link belongs to, for the confirm page. */
export async function claimByLink(sql: Sql, link: string): Promise<LinkClaim | null> {
  const [row] = await sql<LinkClaim[]>`
    select c.id::int, l.name, c.email,
           case when c.status = 'verified' then 'verified' when c.status = 'expired' or c.expires_at <= now() then 'expired' else 'ok' end as usable
    from claims c join listings l on l.id = c.listing_id where c.link_hash = ${hashSecret(link)}`;
  return row ?? null;
}

/** The confirm button's POST: verifies the claim the link belongs to, once. */
export async function confirmClaimLink(sql: Sql, link: string, deps: OwnershipNotice): Promise<LinkClaim | null> {
  return transaction(sql, async (t) => {
    const [c] = await t<{ id: number; status: string; live: boolean }[]>`
      select id::int, status, expires_at > now() as live from claims where link_hash = ${hashSecret(link)} for update`;
    if (!c) return null;
    if (c.status === 'pending' && c.live) await applyVerified(t, c.id, deps);
    return claimByLink(t, link);
  });
}
