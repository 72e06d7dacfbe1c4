// Who manages a listing besides its owner: co-owners (an e-mail claim, or a claim beside an owner
// who proved control). The owner sees them and removes them; co-owners edit but remove nobody.
import { transaction } from '../../sql/db.ts';
import { DomainError, notFound } from '../errors/index.ts';
import { ownListingId, type ListingOwner } from './own-listing.ts';

export interface ListingOwners {
  listing_id: number;
  owner: { user_id: number; email: string; verified: boolean } | null;
  co_owners: { user_id: number; email: string; since: string; method: string | null }[];
}

/** The listing's owner and its company's co-owners, for anyone who manages it. */
export async function listingOwners(owner: Pick<ListingOwner, 'sql' | 'userId' | 'siteId'>, id: number): Promise<ListingOwners> {
  const listingId = await ownListingId(owner.sql, owner, id);
  const [o] = await owner.sql<{ user_id: number; email: string; verified: boolean }[]>`
    select u.id::int as user_id, u.email,
           exists (select 1 from company_owners co join claims c on c.id = co.claim_id
                   where co.company_id = l.company_id and co.user_id = u.id and co.role = 'owner' and c.method <> 'email') as verified
    from listings l join users u on u.id = l.owner_user_id where l.id = ${listingId}`;
  const co = await owner.sql<ListingOwners['co_owners']>`
    select u.id::int as user_id, u.email, to_char(co.since at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as since, c.method
    from listings l join company_owners co on co.company_id = l.company_id join users u on u.id = co.user_id left join claims c on c.id = co.claim_id
    where l.id = ${listingId} and co.role = 'co_owner' order by co.since, u.id`;
  return { listing_id: listingId, owner: o ?? null, co_owners: [...co] };
}

/** Removes a co-owner; only the listing's owner (or an owner who proved control) may. */
export async function removeCoOwner(owner: ListingOwner, id: number, coOwnerId: number): Promise<{ listing_id: number; removed_user_id: number }> {
  return transaction(owner.sql, async (t) => {
    const listingId = await ownListingId(t, owner, id, { forUpdate: true });
    const [l] = await t<{ company_id: string; is_owner: boolean }[]>`
      select l.company_id::text,
             (l.owner_user_id = ${owner.userId}::bigint or exists (select 1 from company_owners co
               where co.company_id = l.company_id and co.user_id = ${owner.userId}::bigint and co.role = 'owner')) as is_owner
      from listings l where l.id = ${listingId}`;
    if (!l.is_owner)
      throw new DomainError('owner_only', 'Only the owner of this listing can remove a co-owner; co-owners can edit the listing but remove nobody.');
    const gone =
      await t`delete from company_owners where company_id = ${l.company_id}::bigint and user_id = ${coOwnerId}::bigint and role = 'co_owner' returning 1`;
    if (!gone.length) throw notFound(`User ${coOwnerId} is not a co-owner of listing ${listingId}.`);
    await t`insert into ownership_events (listing_id, previous_user_id, new_user_id, kind)
            values (${listingId}, ${coOwnerId}::bigint, ${owner.userId}::bigint, 'co_owner_removed')`;
    return { listing_id: listingId, removed_user_id: coOwnerId };
  });
}
