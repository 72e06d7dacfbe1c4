import type { Sql } from './db.ts';
import { PRODUCT_NAME } from './product.ts';

export interface SiteRow {
  id: number;
  key: string;
  name: string;
  purpose: string;
  url: string;
}

/**
 * Makes sure this deployment's site row exists and returns it. The first site of a database is
 * its "self"; an edge started with another SITE_KEY on the same database serves a second site of
 * the network (is_self stays with the first).
 */
export async function ensureSite(sql: Sql, key: string, url: string): Promise<SiteRow> {
  const [row] = await sql<SiteRow[]>`
    insert into sites (key, name, url, purpose, is_self)
    values (${key}, ${PRODUCT_NAME}, ${url},
            'A public directory of software products with a weekly launch calendar, leaderboards and awards.',
            not exists (select 1 from sites where is_self))
    on conflict (key) do update set url = excluded.url
    returning id, key, name, purpose, url`;
  return row;
}
