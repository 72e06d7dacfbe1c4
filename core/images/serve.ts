// What the image routes serve: a listing's logo of a size (or its initials tile), and its share
// image, re-rendered only when what it shows changed.
import { createHash } from 'node:crypto';
import type { Sql } from '../../sql/db.ts';
import { initialsTile, type LogoSize } from './logo-image.ts';
import { renderShareImage, type ShareContent, shareFingerprint } from './share-image.ts';

export interface ServedImage {
  png: Buffer;
  etag: string;
}

const etagOf = (png: Buffer) => createHash('sha256').update(png).digest('base64url').slice(0, 27);

/** The logo of a listing (any status: owners see drafts too) or its initials tile; null for an unknown slug. */
export async function listingLogo(sql: Sql, siteId: number, slug: string, size: LogoSize): Promise<(ServedImage & { initials: boolean }) | null> {
  const [row] = await sql<{ name: string; png: Buffer | null; etag: string | null }[]>`
    select l.name, i.png, i.etag from listings l left join listing_logo_images i on i.listing_id = l.id and i.size = ${size}
    where l.site_id = ${siteId} and l.slug = ${slug}`;
  if (!row) return null;
  if (row.png && row.etag) return { png: Buffer.from(row.png), etag: row.etag, initials: false };
  const png = await initialsTile(row.name, size);
  return { png, etag: etagOf(png), initials: true };
}

/** The share image of a live listing; null when there is none with this slug. */
export async function listingShareImage(sql: Sql, site: { id: number; name: string }, slug: string): Promise<ServedImage | null> {
  const [l] = await sql<
    { id: string; name: string; tagline: string | null; launch_week: string | null; votes: number; png: Buffer | null; fingerprint: string | null }[]
  >`
    select l.id::text, l.name, l.tagline, to_char(l.launch_week, 'YYYY-MM-DD') as launch_week,
           coalesce(st.votes, 0)::int as votes, s.png, s.fingerprint
    from listings l left join listing_share_images s on s.listing_id = l.id
    -- The votes the listing shows everywhere (as of the last refresh): never discounted ones or a
    -- suspended account's, which a count of the votes table would include.
    left join listing_stats st on st.listing_id = l.id
    where l.site_id = ${site.id} and l.slug = ${slug} and l.status = 'live'`;
  if (!l) return null;
  const logo = await listingLogo(sql, site.id, slug, 256);
  const content: ShareContent = { name: l.name, tagline: l.tagline, votes: l.votes, launch_week: l.launch_week, site_name: site.name, logo_png: logo!.png };
  const fingerprint = shareFingerprint(content);
  if (l.png && l.fingerprint === fingerprint) return { png: Buffer.from(l.png), etag: fingerprint.slice(0, 27) };
  const png = await renderShareImage(content);
  await sql`
    insert into listing_share_images (listing_id, fingerprint, png) values (${l.id}, ${fingerprint}, ${png})
    on conflict (listing_id) do update set fingerprint = excluded.fingerprint, png = excluded.png, rendered_at = now()`;
  return { png, etag: fingerprint.slice(0, 27) };
}
