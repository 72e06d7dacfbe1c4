import type { Sql } from '../db.ts';
import { offsetOf } from './summaries.ts';

/** How close a misspelt name must be (pg_trgm word_similarity of the query to the best-matching part of the name). */
export const NAME_SIMILARITY = 0.4;

/**
 * Founders shown publicly: those linked to at least one live listing of this site, with how many
 * such listings they have. Everyone else (only on other sites, or only on unpublished listings) is hidden.
 */
const publicFounders = (sql: Sql, siteId: number) => sql`
  select lf.founder_id, count(distinct l.id)::int as companies
  from listing_founders lf join listings l on l.id = lf.listing_id
  where l.site_id = ${siteId} and l.status = 'live'
  group by lf.founder_id`;

export interface FounderItem {
  slug: string;
  name: string;
  title: string | null;
  country: string | null;
  avatar_url: string | null;
  companies: number;
}

/**
 * One page of public founders. With q: names containing q, or close to it (typos), best match first;
 * without: by name. country matches any case.
 */
export async function searchFounders(sql: Sql, siteId: number, f: { q: string | null; country: string | null; page: number; perPage: number }) {
  const [row] = await sql<{ total: number; items: FounderItem[] }[]>`
    with pub as (${publicFounders(sql, siteId)}),
    matched as (
      select f.slug, f.name, f.title, f.country, f.avatar_url, pub.companies,
             case when ${f.q}::text is null then 0
                  else (strpos(lower(f.name), lower(${f.q})) > 0)::int + word_similarity(lower(${f.q}), lower(f.name))
             end as score
      from founders f join pub on pub.founder_id = f.id
      where (${f.country}::text is null or f.country = upper(${f.country}))
        and (${f.q}::text is null
             or strpos(lower(f.name), lower(${f.q})) > 0
             or word_similarity(lower(${f.q}), lower(f.name)) >= ${NAME_SIMILARITY}))
    select (select count(*)::int from matched) as total,
           coalesce((select json_agg(json_build_object('slug', m.slug, 'name', m.name, 'title', m.title, 'country', m.country,
                                                       'avatar_url', m.avatar_url, 'companies', m.companies) order by m.ord)
                     from (select *, row_number() over (order by score desc, lower(name), slug) as ord
                           from matched order by ord limit ${f.perPage} offset ${offsetOf(f.page, f.perPage)}) m), '[]'::json) as items`;
  return row;
}

export interface StorySections {
  story: string | null;
  why_started: string | null;
  problem: string | null;
  journey: string | null;
  challenges: string | null;
  achievements: string | null;
  lessons: string | null;
  whats_next: string | null;
}
export interface FounderProfile {
  id: number;
  slug: string;
  name: string;
  title: string | null;
  bio: string | null;
  country: string | null;
  avatar_url: string | null;
  socials: Record<string, string>;
  companies: { listing_id: number; role: string | null }[];
  stories: { listing_slug: string; listing_name: string; title: string | null; sections: StorySections }[];
  interview: { question_id: number; question: string; answer: string }[];
}

/**
 * A public founder's profile: the live listings of this site they founded (ids in display order,
 * newest launch first, with their role), the founder stories published with those listings (the
 * story section unlocked), and their interview answers to active questions when they have an
 * account. Null when unknown or not public.
 */
export async function founderBySlug(sql: Sql, siteId: number, slug: string): Promise<FounderProfile | null> {
  const [row] = await sql<FounderProfile[]>`
    with f as (select * from founders where slug = ${slug}),
    links as (
      select l.id, l.slug, l.name, l.unlocked_sections, lf.role,
             row_number() over (order by l.launched_at desc nulls last, l.id desc) as ord
      from f join listing_founders lf on lf.founder_id = f.id
      join listings l on l.id = lf.listing_id
      where l.site_id = ${siteId} and l.status = 'live')
    select f.id::int as id, f.slug, f.name, f.title, f.bio, f.country, f.avatar_url,
           coalesce((select json_object_agg(key, value order by key) from jsonb_each_text(f.socials)), '{}'::json) as socials,
           (select json_agg(json_build_object('listing_id', id, 'role', role) order by ord) from links) as companies,
           coalesce((select json_agg(json_build_object(
                       'listing_slug', k.slug, 'listing_name', k.name, 'title', s.title,
                       'sections', json_build_object('story', s.story, 'why_started', s.why_started, 'problem', s.problem,
                                                     'journey', s.journey, 'challenges', s.challenges,
                                                     'achievements', s.achievements, 'lessons', s.lessons,
                                                     'whats_next', s.whats_next)) order by k.ord)
                     from links k join founder_stories s on s.listing_id = k.id
                     where 'story' = any(k.unlocked_sections)), '[]'::json) as stories,
           coalesce((select json_agg(json_build_object('question_id', q.id, 'question', q.question, 'answer', a.answer)
                                     order by q.position, q.id)
                     from interview_answers a join interview_questions q on q.id = a.question_id
                     where f.user_id is not null and a.user_id = f.user_id and q.active), '[]'::json) as interview
    from f
    where exists (select 1 from links)`;
  return row ?? null;
}
