import DataLoader from 'dataloader';
import type { Logger } from 'pino';
import type { Sql } from '../../sql/db.ts';

/**
 * Counts listing page views (record_listing_view: once per visitor per listing per UTC day) in the
 * background, the views a turn of the event loop asks for in one statement (DataLoader, its cache
 * off). Nearly every view from a search engine or a visitor from search is a first one, and one
 * statement each cost the edge more than the rest of the page's reads together.
 */
export function viewCounter(sql: Sql, siteId: number, log: Pick<Logger, 'warn'>) {
  const batch = new DataLoader<{ slug: string; visitor: string }, null>(
    async (views) => {
      try {
        await sql`
          select record_listing_view(l.id, v.visitor)
          from unnest((select ${views.map((v) => v.slug)}::text[]), (select ${views.map((v) => v.visitor)}::text[])) as v(slug, visitor)
          join listings l on l.site_id = ${siteId} and l.slug = v.slug and l.status = 'live'`;
      } catch (err) {
        log.warn({ err, views: views.length }, 'views not counted');
      }
      return views.map(() => null);
    },
    { cache: false },
  );
  return (slug: string, visitor: string) => void batch.load({ slug, visitor });
}
