// Disputes of an ownership change: the person a verified claim affected opens the mailed link and
// tells the site team it was wrong; the operator CLI lists what was disputed (ops claims disputes).
import type { Sql } from '../../sql/db.ts';
import { hashSecret } from '../auth/secrets.ts';

export const DISPUTE_MESSAGE_MAX = 2000;

export interface DisputeLink {
  id: number;
  listing: string;
  kind: string;
  claimant: string | null;
  disputed: boolean;
  expired: boolean;
}

/** The dispute a mailed link belongs to, for its page; null when the link is unknown. */
export async function disputeByLink(sql: Sql, link: string): Promise<DisputeLink | null> {
  const [row] = await sql<DisputeLink[]>`
    select d.id::int, l.name as listing, coalesce(e.kind, 'owner_changed') as kind, u.email as claimant,
           d.disputed_at is not null as disputed, d.expires_at <= now() as expired
    from ownership_disputes d join listings l on l.id = d.listing_id
    left join ownership_events e on e.id = d.event_id left join users u on u.id = e.new_user_id
    where d.token_hash = ${hashSecret(link)}`;
  return row ?? null;
}

/** Records the dispute once (a second send changes nothing); false when the link is unknown or expired. */
export async function recordDispute(sql: Sql, link: string, message: string): Promise<boolean> {
  const rows = await sql`
    update ownership_disputes set disputed_at = coalesce(disputed_at, now()), message = coalesce(message, ${message.slice(0, DISPUTE_MESSAGE_MAX)})
    where token_hash = ${hashSecret(link)} and expires_at > now() returning 1`;
  return rows.length > 0;
}

export interface DisputeRow {
  id: number;
  disputed_at: string;
  site: string;
  listing: string;
  slug: string;
  kind: string;
  disputed_by: string | null;
  claimant: string | null;
  method: string | null;
  message: string | null;
}

/** Disputed ownership changes, newest first, for the site team. */
export async function listDisputes(sql: Sql, limit: number): Promise<DisputeRow[]> {
  return sql<DisputeRow[]>`
    select d.id::int, to_char(d.disputed_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as disputed_at, s.key as site, l.name as listing, l.slug,
           coalesce(e.kind, 'owner_changed') as kind, du.email as disputed_by, nu.email as claimant, c.method, d.message
    from ownership_disputes d join listings l on l.id = d.listing_id join sites s on s.id = l.site_id
    left join ownership_events e on e.id = d.event_id left join users du on du.id = d.user_id
    left join users nu on nu.id = e.new_user_id left join claims c on c.id = e.claim_id
    where d.disputed_at is not null order by d.disputed_at desc, d.id desc limit ${limit}`;
}
