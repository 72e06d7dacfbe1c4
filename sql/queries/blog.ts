import type { Sql } from '../db.ts';
import { offsetOf } from './summaries.ts';

/** How close a misspelt query must be to a title (pg_trgm word_similarity) to match without full text. */
export const TITLE_SIMILARITY = 0.4;

export interface BlogItem {
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  tags: string[];
  published_at: string;
  url: string;
}

const iso = (sql: Sql) => sql`'YYYY-MM-DD"T"HH24:MI:SS"Z"'`;

/**
 * One page of published posts (published_at already past). Without q: newest first. With q: posts
 * whose title, excerpt or body match it as a web-search query, best rank first; when none does,
 * posts whose title is close to q (a misspelling), most similar first.
 */
export async function searchBlogPosts(sql: Sql, siteUrl: string, f: { q: string | null; page: number; perPage: number }) {
  const [row] = await sql<{ total: number; items: BlogItem[] }[]>`
    with query as (select websearch_to_tsquery('english', coalesce(${f.q}::text, '')) as tsq, lower(${f.q}::text) as q),
    published as (
      select b.slug, b.title, b.excerpt, b.author, b.tags, b.published_at, b.search
      from blog_posts b where b.published_at <= now()),
    full_text as (
      select p.*, case when query.q is null then 0 else ts_rank_cd(p.search, query.tsq) end as score
      from published p, query
      where query.q is null or p.search @@ query.tsq),
    -- typo fallback only when full text finds nothing, so fuzzy title hits never dilute real matches
    fuzzy as (
      select p.*, word_similarity(query.q, lower(p.title)) as score
      from published p, query
      where query.q is not null and not exists (select 1 from full_text)
        and word_similarity(query.q, lower(p.title)) >= ${TITLE_SIMILARITY}),
    matched as (select * from full_text union all select * from fuzzy)
    select (select count(*)::int from matched) as total,
           coalesce((select json_agg(json_build_object(
                       'slug', m.slug, 'title', m.title, 'excerpt', m.excerpt, 'author', m.author, 'tags', m.tags,
                       'published_at', to_char(m.published_at at time zone 'utc', ${iso(sql)}),
                       'url', ${siteUrl + '/blog/'} || m.slug) order by m.ord)
                     from (select *, row_number() over (order by score desc, published_at desc, slug) as ord
                           from matched order by ord limit ${f.perPage} offset ${offsetOf(f.page, f.perPage)}) m), '[]'::json) as items`;
  return row;
}

export interface BlogPost extends BlogItem {
  body_markdown: string;
  faqs: { question: string; answer: string }[];
}

/** A published post in full; null when unknown or not yet published. */
export async function blogPostBySlug(sql: Sql, siteUrl: string, slug: string): Promise<BlogPost | null> {
  const [row] = await sql<BlogPost[]>`
    select b.slug, b.title, b.excerpt, b.author, b.tags,
           to_char(b.published_at at time zone 'utc', ${iso(sql)}) as published_at,
           ${siteUrl + '/blog/'} || b.slug as url,
           b.body_md as body_markdown,
           -- faqs is free jsonb; keep only well-formed entries, as strings
           coalesce((select json_agg(json_build_object('question', x.f->>'question', 'answer', x.f->>'answer') order by x.n)
                     from jsonb_array_elements(b.faqs) with ordinality as x(f, n)
                     where jsonb_typeof(x.f) = 'object' and x.f ? 'question' and x.f ? 'answer'), '[]'::json) as faqs
    from blog_posts b
    where b.slug = ${slug} and b.published_at <= now()`;
  return row ?? null;
}
