// set_founder_story: replaces the listing's founder story (sections left out or empty are removed).
import { transaction } from '../../sql/db.ts';
import { ownListingId, type ListingOwner } from './own-listing.ts';

export const STORY_SECTIONS = ['title', 'story', 'why_started', 'problem', 'journey', 'challenges', 'achievements', 'lessons', 'whats_next'] as const;
export type StorySection = (typeof STORY_SECTIONS)[number];
export const STORY_MAX: Record<StorySection, number> = Object.fromEntries(STORY_SECTIONS.map((s) => [s, s === 'title' ? 200 : 8000])) as Record<
  StorySection,
  number
>;

export interface StoryOut {
  sections: Partial<Record<StorySection, string>>;
  updated_at: string | null;
  published: boolean;
}

export async function setFounderStory(owner: ListingOwner, id: number, input: Partial<Record<StorySection, string>>): Promise<StoryOut> {
  return transaction(owner.sql, async (t) => {
    const listingId = await ownListingId(t, owner, id, { forUpdate: true });
    const cols = Object.fromEntries(STORY_SECTIONS.map((s) => [s, input[s]?.trim() ? input[s]!.trim() : null])) as Record<StorySection, string | null>;
    let updatedAt: string | null = null;
    if (Object.values(cols).every((v) => v === null)) {
      await t`delete from founder_stories where listing_id = ${listingId}`;
    } else {
      const c = cols;
      const [r] = await t<{ at: string }[]>`
        insert into founder_stories (listing_id, title, story, why_started, problem, journey, challenges, achievements, lessons, whats_next, updated_at)
        values (${listingId}, ${c.title}, ${c.story}, ${c.why_started}, ${c.problem}, ${c.journey}, ${c.challenges}, ${c.achievements}, ${c.lessons}, ${c.whats_next}, now())
        on conflict (listing_id) do update set title = excluded.title, story = excluded.story, why_started = excluded.why_started,
          problem = excluded.problem, journey = excluded.journey, challenges = excluded.challenges, achievements = excluded.achievements,
          lessons = excluded.lessons, whats_next = excluded.whats_next, updated_at = now()
        returning to_char(updated_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at`;
      updatedAt = r.at;
    }
    const [{ p }] = await t<{ p: boolean }[]>`select status = 'live' and 'story' = any(unlocked_sections) as p from listings where id = ${listingId}`;
    if (p) await t`select directory_changed()`;
    const sections = Object.fromEntries(Object.entries(cols).filter(([, v]) => v !== null)) as Partial<Record<StorySection, string>>;
    return { sections, updated_at: updatedAt, published: p };
  });
}
