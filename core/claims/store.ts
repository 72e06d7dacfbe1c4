// Reading claims as the API shows them.
import type { Sql } from '../../sql/db.ts';
import { notFound } from '../errors/index.ts';
import { instructionsFor, type ClaimMethod, type Instructions } from './instructions.ts';

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS"Z"'`;

export interface ClaimRow {
  id: number;
  listing_id: number;
  slug: string;
  name: string;
  domain: string;
  url: string;
  method: ClaimMethod;
  email: string | null;
  token: string;
  status: 'pending' | 'verified' | 'expired';
  failure_reason: string | null;
  failure_detail: string | null;
  checked_at: string | null;
  created_at: string;
  expires_at: string;
  verified_at: string | null;
}

export interface ClaimView {
  id: number;
  listing: { id: number; slug: string; name: string; domain: string };
  method: ClaimMethod;
  email: string | null;
  status: ClaimRow['status'];
  instructions: Instructions;
  last_check: { at: string | null; reason: string; detail: string | null } | null;
  created_at: string;
  expires_at: string;
  verified_at: string | null;
}

/** The claims of a user (or one of them); a pending claim past its time reads as expired. */
export async function claimRows(
  sql: Sql,
  userId: string,
  opts: { id?: number; page?: number; perPage?: number } = {},
): Promise<{ rows: ClaimRow[]; total: number }> {
  const iso = sql.unsafe(ISO);
  const where = sql`c.user_id = ${userId}::bigint ${opts.id ? sql`and c.id = ${opts.id}` : sql``}`;
  const perPage = opts.perPage ?? 20;
  const rows = await sql<ClaimRow[]>`
    select c.id::int, l.id::int as listing_id, l.slug, l.name, l.domain, l.url, c.method, c.email, c.token,
      case when c.status = 'pending' and c.expires_at <= now() then 'expired' else c.status end as status,
      c.failure_reason, c.failure_detail, to_char(c.checked_at at time zone 'utc', ${iso}) as checked_at,
      to_char(c.created_at at time zone 'utc', ${iso}) as created_at, to_char(c.expires_at at time zone 'utc', ${iso}) as expires_at,
      to_char(c.verified_at at time zone 'utc', ${iso}) as verified_at
    from claims c join listings l on l.id = c.listing_id
    where ${where} order by c.created_at desc, c.id desc
    limit ${perPage} offset ${((opts.page ?? 1) - 1) * perPage}`;
  const [{ total }] = await sql<{ total: number }[]>`select count(*)::int as total from claims c where ${where}`;
  return { rows, total };
}

export function claimView(r: ClaimRow): ClaimView {
  return {
    id: r.id,
    listing: { id: r.listing_id, slug: r.slug, name: r.name, domain: r.domain },
    method: r.method,
    email: r.email,
    status: r.status,
    instructions: instructionsFor({ method: r.method, token: r.token, email: r.email, domain: r.domain, url: r.url }),
    last_check: r.failure_reason ? { at: r.checked_at, reason: r.failure_reason, detail: r.failure_detail } : null,
    created_at: r.created_at,
    expires_at: r.expires_at,
    verified_at: r.verified_at,
  };
}

export const missingClaim = (id: number) => notFound(`No claim ${id} of yours (another account's claim is reported the same way).`);

export async function ownClaim(sql: Sql, userId: string, id: number): Promise<ClaimView> {
  const {
    rows: [row],
  } = await claimRows(sql, userId, { id });
  if (!row) throw missingClaim(id);
  return claimView(row);
}
