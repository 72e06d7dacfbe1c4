// What the maker's dashboard shows besides the owner view: the free queue's weeks with room, and
// the listing's milestones and founder story as the owner wrote them (published or not).
import type { Sql } from '../../sql/db.ts';
import { ownListingId, type ListingOwner } from './own-listing.ts';
import { STORY_SECTIONS, type StorySection } from './story.ts';

/** The weeks of the site's free queue window and their free slots (the rule of allocate_free_week). */
export async function freeQueueWeeks(sql: Sql, siteId: number): Promise<{ week: string; free: number }[]> {
  return sql<{ week: string; free: number }[]>`
    select to_char(g.ts::date, 'YYYY-MM-DD') as week,
           greatest(0, s.launch_slots_per_week - (select count(*)::int from listings o
             where o.site_id = s.id and o.launch_week = g.ts::date and o.status <> 'draft')) as free
    from sites s,
         generate_series(date_trunc('week', now() at time zone 'utc')::date + 7 * s.free_queue_min_weeks,
                         date_trunc('week', now() at time zone 'utc')::date + 7 * s.free_queue_max_weeks, interval '7 days') as g(ts)
    where s.id = ${siteId} order by 1`;
}

export interface OwnerExtras {
  milestones: { id: number; date: string; title: string; description: string | null; url: string | null }[];
  story: Partial<Record<StorySection, string>>;
}

export async function ownerExtras(owner: Pick<ListingOwner, 'sql' | 'userId' | 'siteId'>, id: number): Promise<OwnerExtras> {
  const { sql } = owner;
  const listingId = await ownListingId(sql, owner, id);
  const [milestones, [story]] = await Promise.all([
    sql<OwnerExtras['milestones']>`
      select id::int, to_char(date, 'YYYY-MM-DD') as date, title, description, url from milestones
      where listing_id = ${listingId} order by date desc, id desc`,
    sql<Record<string, string | null>[]>`select * from founder_stories where listing_id = ${listingId}`,
  ]);
  const s: Partial<Record<StorySection, string>> = {};
  for (const k of STORY_SECTIONS) if (story?.[k]) s[k] = story[k]!;
  return { milestones, story: s };
}
