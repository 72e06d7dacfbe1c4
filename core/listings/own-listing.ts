// Reading and locking the caller's own listing, for the owner operations.
import type { Sql } from '../../sql/db.ts';
import { notFound } from '../errors/index.ts';

/** Who acts on a listing: the signed-in user, on this deployment's site, with one credential. */
export interface ListingOwner {
  sql: Sql;
  userId: string;
  siteId: number;
  credential: string;
}

export const missingListing = (id: number) => notFound(`No listing ${id} of yours on this site (another account's listing is reported the same way).`);

/**
 * The one place that says who owns a listing: its owner, or a holder of a verified claim on its
 * company (an owner or a co-owner; both may edit). `alias` is the listings alias of the query.
 */
export const ownsListing = (sql: Sql, userId: string, alias = 'l') => {
  const l = sql.unsafe(alias);
  return sql`(${l}.owner_user_id = ${userId}::bigint
  or exists (select 1 from company_owners co where co.company_id = ${l}.company_id and co.user_id = ${userId}::bigint))`;
};

/** The id of the caller's listing, locked for update when asked; 404 when it is not theirs. */
export async function ownListingId(sql: Sql, owner: Pick<ListingOwner, 'userId' | 'siteId'>, id: number, opts: { forUpdate?: boolean } = {}): Promise<number> {
  const [row] = await sql<{ id: number }[]>`
    select l.id::int from listings l
    where l.id = ${id} and l.site_id = ${owner.siteId} and ${ownsListing(sql, owner.userId)}
    ${opts.forUpdate ? sql`for update` : sql``}`;
  if (!row) throw missingListing(id);
  return row.id;
}
