// add_milestone and delete_milestone on the caller's listing.
import { transaction } from '../../sql/db.ts';
import { conflict, notFound } from '../errors/index.ts';
import { ownListingId, type ListingOwner } from './own-listing.ts';

export const MILESTONES_MAX = 50;

export interface Milestone {
  id: number;
  listing_id: number;
  date: string;
  title: string;
  description: string | null;
  url: string | null;
  published: boolean;
}

const published = (t: ListingOwner['sql'], listingId: number) =>
  t<{ p: boolean }[]>`select status = 'live' and 'milestones' = any(unlocked_sections) as p from listings where id = ${listingId}`;

export async function addMilestone(
  owner: ListingOwner,
  id: number,
  m: { date: string; title: string; description?: string | null; url?: string | null },
): Promise<Milestone> {
  return transaction(owner.sql, async (t) => {
    const listingId = await ownListingId(t, owner, id, { forUpdate: true });
    const [{ n }] = await t<{ n: number }[]>`select count(*)::int as n from milestones where listing_id = ${listingId}`;
    if (n >= MILESTONES_MAX) throw conflict('milestone_limit_reached', `A listing has at most ${MILESTONES_MAX} milestones; delete one first.`);
    const [row] = await t<Omit<Milestone, 'published'>[]>`
      insert into milestones (listing_id, date, title, description, url)
      values (${listingId}, ${m.date}::date, ${m.title}, ${m.description || null}, ${m.url || null})
      returning id::int, listing_id::int, to_char(date, 'YYYY-MM-DD') as date, title, description, url`;
    const [{ p }] = await published(t, listingId);
    if (p) await t`select directory_changed()`;
    return { ...row, published: p };
  });
}

export async function deleteMilestone(owner: ListingOwner, id: number, milestoneId: number): Promise<{ id: number; deleted: true }> {
  return transaction(owner.sql, async (t) => {
    const listingId = await ownListingId(t, owner, id, { forUpdate: true });
    const gone = await t`delete from milestones where id = ${milestoneId} and listing_id = ${listingId}`;
    if (gone.count === 0) throw notFound(`No milestone ${milestoneId} on listing ${id}.`);
    const [{ p }] = await published(t, listingId);
    if (p) await t`select directory_changed()`;
    return { id: milestoneId, deleted: true as const };
  });
}
