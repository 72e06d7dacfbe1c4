import type { Sql } from '../db.ts';

export interface UpcomingListing {
  id: number;
  slug: string;
  name: string;
  tagline: string | null;
  domain: string;
  status: 'scheduled' | 'awaiting_badge';
  launch_week: string | null;
  follows: number;
}

/**
 * A listing of the site that is queued for launch (scheduled, or awaiting its badge), by slug; null
 * for any other status, so drafts stay invisible. Its public face is the coming-soon page.
 */
export async function upcomingListing(sql: Sql, siteId: number, slug: string): Promise<UpcomingListing | null> {
  const [row] = await sql<UpcomingListing[]>`
    select l.id::int as id, l.slug, l.name, l.tagline, l.domain, l.status, to_char(l.launch_week, 'YYYY-MM-DD') as launch_week,
           (select count(*)::int from counted_follows f where f.listing_id = l.id) as follows
    from listings l
    where l.site_id = ${siteId} and l.slug = ${slug} and l.status in ('scheduled', 'awaiting_badge')`;
  return row ?? null;
}
