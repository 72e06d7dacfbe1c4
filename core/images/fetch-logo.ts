// Fetching a listing's logo (the fetch_logos job, after drafting and re-crawls): through the
// SSRF-safe fetcher, size-capped, checked and resized by logo-image.ts, stored in the database
// where every edge serves it from. A failure is recorded and the pages show the initials tile.
import { transaction, type Sql } from '../../sql/db.ts';
import type { SafeFetch } from '../net/ssrf-fetch.ts';
import { LogoError, logoImages } from './logo-image.ts';

export type LogoOutcome = 'stored' | 'failed' | 'cleared' | 'unchanged';

/** Listings whose logo_url has not been fetched yet (or changed since), newest listings first. */
export async function logosDue(sql: Sql, limit: number): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select l.id::text from listings l left join listing_logos g on g.listing_id = l.id
    where (l.logo_url is not null and g.source_url is distinct from l.logo_url) or (l.logo_url is null and g.listing_id is not null)
    order by l.id desc limit ${limit}`;
  return rows.map((r) => r.id);
}

export async function fetchListingLogo(sql: Sql, fetcher: SafeFetch, listingId: string): Promise<LogoOutcome> {
  const [l] = await sql<{ logo_url: string | null; source_url: string | null }[]>`
    select l.logo_url, g.source_url from listings l left join listing_logos g on g.listing_id = l.id where l.id = ${listingId}`;
  if (!l) return 'unchanged';
  if (!l.logo_url) {
    const gone = await sql`delete from listing_logos where listing_id = ${listingId} returning 1`;
    return gone.length ? 'cleared' : 'unchanged';
  }
  if (l.source_url === l.logo_url) return 'unchanged';
  const url = l.logo_url;
  let error: string | null = null;
  let images: Awaited<ReturnType<typeof logoImages>> = [];
  try {
    if (!/^https?:\/\//i.test(url)) throw new LogoError('not an http(s) URL');
    const res = await fetcher(url, { accept: 'image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8' });
    if (res.status !== 200) throw new LogoError(`the site answered ${res.status}`);
    images = await logoImages(res.body);
  } catch (e) {
    error = (e instanceof Error ? e.message : String(e)).slice(0, 500);
  }
  await transaction(sql, async (tx) => {
    await tx`
      insert into listing_logos (listing_id, source_url, status, error, fetched_at) values (${listingId}, ${url}, ${error ? 'failed' : 'ok'}, ${error}, now())
      on conflict (listing_id) do update set source_url = excluded.source_url, status = excluded.status, error = excluded.error, fetched_at = now()`;
    await tx`delete from listing_logo_images where listing_id = ${listingId}`;
    for (const img of images) {
      await tx`insert into listing_logo_images (listing_id, size, png, etag) values (${listingId}, ${img.size}, ${img.png}, ${img.etag})`;
    }
    await tx`select directory_changed()`;
  });
  return error ? 'failed' : 'stored';
}
