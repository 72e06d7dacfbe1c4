// Counting what a listing brings its maker: profile views, website clicks (each visitor once a
// day, without storing who), badge impressions by referring host, and API/MCP reads.
import { createHash } from 'node:crypto';
import type { Sql } from '../../sql/db.ts';

/** The live listing behind a slug and its website, for the counting redirect. */
export async function listingWebsite(sql: Sql, siteId: number, slug: string): Promise<{ id: string; url: string } | null> {
  const [row] = await sql<{ id: string; url: string }[]>`select id::text, url from listings where site_id = ${siteId} and slug = ${slug} and status = 'live'`;
  return row ?? null;
}

/** Counts a click once per visitor and day; the address and user agent only enter a hash with the day's salt, in SQL. */
export async function countClick(sql: Sql, listingId: string, address: string, userAgent: string): Promise<boolean> {
  // Pre-hashed here so the raw address never travels to the database either.
  const fingerprint = createHash('sha256').update(`${address}\n${userAgent}`).digest();
  const [r] = await sql<{ counted: boolean }[]>`select count_listing_click(${listingId}, ${fingerprint}) as counted`;
  return r.counted;
}

export async function countView(sql: Sql, listingId: string): Promise<void> {
  await sql`insert into listing_views (listing_id, day, views) values (${listingId}, (now() at time zone 'utc')::date, 1)
            on conflict (listing_id, day) do update set views = listing_views.views + 1`;
}

/** The referring host of a badge request: the Referer's host name, "(direct)" without a readable one. */
export function referringHost(referer: string | null): string {
  if (!referer) return '(direct)';
  try {
    const host = new URL(referer).hostname.toLowerCase();
    return host && host.length <= 253 ? host : '(direct)';
  } catch {
    return '(direct)';
  }
}
