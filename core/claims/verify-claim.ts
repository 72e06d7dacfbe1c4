// verify_claim and the mailed link: check what the claimant published, then make them the owner.
import { transaction, type Sql } from '../../sql/db.ts';
import type { SafeFetch } from '../net/ssrf-fetch.ts';
import { readPage } from '../net/read-page.ts';
import { DnsLookupError, type TxtLookup } from '../dns/txt-lookup.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { hashSecret } from '../auth/secrets.ts';
import { claimDomain, DNS_LABEL, FILE_PATH, META_NAME, verificationValue, type ClaimMethod } from './instructions.ts';
import { claimRows, missingClaim, ownClaim, type ClaimView } from './store.ts';

export interface ClaimChecks {
  fetcher: SafeFetch;
  txt: TxtLookup;
  siteName: string;
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

/** Marks the claim verified and makes its user the listing's owner and a company owner; tells the earlier owner. */
async function applyVerified(t: Sql, claimId: number, deps: { siteName: string }): Promise<void> {
  const [c] = await t<
    { listing_id: number; user_id: string; company_id: string; name: string; status: string; prev: string | null; prev_email: string | null; method: string }[]
  >`
    select c.listing_id::int, c.user_id::text, l.company_id::text, l.name, l.status, l.owner_user_id::text as prev, u.email as prev_email, c.method
    from claims c join listings l on l.id = c.listing_id left join users u on u.id = l.owner_user_id
    where c.id = ${claimId} for update of c, l`;
  await t`update claims set status = 'verified', verified_at = now(), checked_at = now(), failure_reason = null, failure_detail = null where id = ${claimId}`;
  await t`update listings set owner_user_id = ${c.user_id}::bigint, updated_at = now() where id = ${c.listing_id}`;
  await t`insert into company_owners (company_id, user_id, claim_id) values (${c.company_id}::bigint, ${c.user_id}::bigint, ${claimId}) on conflict do nothing`;
  await t`insert into ownership_events (listing_id, previous_user_id, new_user_id, claim_id) values (${c.listing_id}, ${c.prev}::bigint, ${c.user_id}::bigint, ${claimId})`;
  if (c.prev && c.prev !== c.user_id && c.prev_email) {
    await enqueueMail(t, {
      to: c.prev_email,
      kind: 'listing_claimed',
      subject: `${c.name} on ${deps.siteName} was claimed`,
      text:
        `Someone proved control of ${c.name}'s website (${c.method} verification) and is now the owner of the listing on ${deps.siteName}.\n\n` +
        'If this is wrong, reply to this mail and the site team will look into it.',
    });
  }
  // The verified badge follows a verified claim.
  if (c.status !== 'draft') await t`select directory_changed()`;
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
export async function confirmClaimLink(sql: Sql, link: string, deps: { siteName: string }): Promise<LinkClaim | null> {
  return transaction(sql, async (t) => {
    const [c] = await t<{ id: number; status: string; live: boolean }[]>`
      select id::int, status, expires_at > now() as live from claims where link_hash = ${hashSecret(link)} for update`;
    if (!c) return null;
    if (c.status === 'pending' && c.live) await applyVerified(t, c.id, deps);
    return claimByLink(t, link);
  });
}
