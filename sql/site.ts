import type { Sql } from './db.ts';
import { PRODUCT_NAME } from './product.ts';

export interface SiteRow {
  id: number;
  key: string;
  name: string;
  purpose: string;
  url: string;
}

/** Makes sure this deployment's site row exists and returns it. */
export async function ensureSite(sql: Sql, key: string, url: string): Promise<SiteRow> {
  const [row] = await sql<SiteRow[]>`
    insert into sites (key, name, url, purpose, is_self)
    values (${key}, ${PRODUCT_NAME}, ${url},
            'A public directory of software products with a weekly launch calendar, leaderboards and awards.', true)
    on conflict (key) do update set url = excluded.url
    returning id, key, name, purpose, url`;
  return row;
}
