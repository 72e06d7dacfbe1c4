// The stored crawl of a draft (its own site, and its competitor's): regenerate and compare read
// these instead of fetching again, so a redraft sees exactly what the first draft saw.
import type { Sql } from '../../sql/db.ts';

/** The crawler's page shape (pipeline/crawl CrawledPage), declared here because sql/ never imports the pipeline. */
export interface StoredPage {
  url: string;
  status: number;
  title: string | null;
  html: string;
  text: string;
  fetchedAt: string;
}
export type PageKind = 'site' | 'competitor';

/** Stored HTML and text are capped (the crawler's per-page byte cap is the same, so this rarely cuts). */
export const PAGE_CHARS_MAX = 1_000_000;

/** Replaces the stored pages of one kind (a re-run of a crawl job stores its pages again, not twice). */
export async function storePages(sql: Sql, draftId: string, kind: PageKind, pages: StoredPage[]): Promise<void> {
  await sql`delete from draft_pages where draft_id = ${draftId} and kind = ${kind}`;
  if (pages.length === 0) return;
  const rows = pages.map((p, position) => ({
    draft_id: draftId,
    kind,
    position,
    url: p.url.slice(0, 2048),
    status: p.status,
    title: p.title?.slice(0, 2000) ?? null,
    text: p.text.slice(0, PAGE_CHARS_MAX),
    html: p.html.slice(0, PAGE_CHARS_MAX),
    fetched_at: p.fetchedAt,
  }));
  await sql`insert into draft_pages ${sql(rows, 'draft_id', 'kind', 'position', 'url', 'status', 'title', 'text', 'html', 'fetched_at')}`;
}

export async function loadPages(sql: Sql, draftId: string, kind: PageKind): Promise<StoredPage[]> {
  const rows = await sql<{ url: string; status: number; title: string | null; html: string; text: string; fetched_at: Date }[]>`
    select url, status, title, html, text, fetched_at from draft_pages where draft_id = ${draftId} and kind = ${kind} order by position`;
  return rows.map((r) => ({ url: r.url, status: r.status, title: r.title, html: r.html, text: r.text, fetchedAt: r.fetched_at.toISOString() }));
}

/** URL and title of each stored page (what get_draft shows of the crawl). */
export async function pageList(sql: Sql, draftId: string, kind: PageKind): Promise<{ url: string; title: string | null }[]> {
  return sql<{ url: string; title: string | null }[]>`
    select url, title from draft_pages where draft_id = ${draftId} and kind = ${kind} order by position`;
}
