import type { Sql } from '../db.ts';

export const SITEMAP_PAGE_SIZE = 10000;

/** How many live listings a site has, read exactly (the sitemap index must cover every one). */
export async function liveListingCount(sql: Sql, siteId: number): Promise<number> {
  const [r] = await sql`select count(*)::int as n from listings where site_id = ${siteId} and status = 'live'`;
  return r.n;
}

/** One page of live listing slugs in id order (stable as listings are added) with their last change. */
export async function liveListingSlugs(sql: Sql, siteId: number, page: number, perPage = SITEMAP_PAGE_SIZE) {
  return sql<{ slug: string; lastmod: string }[]>`
    select slug, to_char(updated_at at time zone 'utc', 'YYYY-MM-DD') as lastmod
    from listings where site_id = ${siteId} and status = 'live'
    order by id limit ${perPage} offset ${(page - 1) * perPage}`;
}

/** Slugs of the other public pages: categories, founders with a live company, published blog posts. */
export async function otherSlugs(sql: Sql, siteId: number) {
  const [categories, founders, posts] = await Promise.all([
    sql<{ slug: string }[]>`select slug from categories order by id`,
    sql<{ slug: string }[]>`select distinct f.slug from founders f join listing_founders lf on lf.founder_id = f.id join listings l on l.id = lf.listing_id
                            where l.site_id = ${siteId} and l.status = 'live' order by f.slug`,
    sql<{ slug: string }[]>`select slug from blog_posts where published_at <= now() order by published_at desc`,
  ]);
  return { categories, founders, posts };
}
