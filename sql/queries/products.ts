import type { Sql } from '../db.ts';

/** How many launch weeks a buyer may choose from. */
export const BOOKABLE_WEEKS = 12;

/** Products that take a launch week, even where the week is optional (launch: omitted means live now). */
export const WEEK_PRODUCTS = ['launch', 'skip_queue', 'relaunch'];

/**
 * The Mondays a buyer may choose, as YYYY-MM-DD: the next BOOKABLE_WEEKS Mondays starting with next
 * week's (weeks run Monday to Sunday, UTC). One definition so list_products and order checks agree.
 */
const bookableWeeksArray = (sql: Sql) => sql`
  select coalesce(array_agg(to_char(d, 'YYYY-MM-DD') order by d), '{}'::text[])
  from (select date_trunc('week', now() at time zone 'utc')::date + 7 * i as d
        from generate_series(1, ${BOOKABLE_WEEKS}::int) i) w`;

/** The bookable Mondays (order checks use the same list list_products shows). */
export async function bookableWeeks(sql: Sql): Promise<string[]> {
  const [row] = await sql<{ weeks: string[] }[]>`select (${bookableWeeksArray(sql)}) as weeks`;
  return row.weeks;
}

export interface ProductRow {
  code: string;
  name: string;
  description: string;
  needs_listing: boolean;
  needs_week: boolean;
  price: { amount_cents: number; currency: string };
  min_amount_cents: number | null;
  options: Record<string, unknown> | null;
  weeks: string[] | null;
}

/**
 * Active products with this site's current price: the newest product_prices row of the site that is
 * already valid. Products without one are not for sale here and are left out. Ordered by position.
 */
export async function currentProducts(sql: Sql, siteId: number): Promise<ProductRow[]> {
  return sql<ProductRow[]>`
    select p.code, p.name, p.description, p.needs_listing, p.needs_week,
           json_build_object('amount_cents', pr.amount_cents, 'currency', pr.currency) as price,
           pr.min_amount_cents::int as min_amount_cents,
           p.options,
           case when p.needs_week or p.code = any(${WEEK_PRODUCTS}::text[]) then (${bookableWeeksArray(sql)}) end as weeks
    from products p
    join lateral (
      select pp.amount_cents, pp.currency, pp.min_amount_cents
      from product_prices pp
      where pp.site_id = ${siteId} and pp.product_code = p.code and pp.valid_from <= now()
      order by pp.valid_from desc, pp.id desc
      limit 1) pr on true
    where p.active
    order by p.position, p.code`;
}
