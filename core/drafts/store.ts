// Reads and writes of the drafts table, shared by the edge (draft operations) and the worker (jobs).
import type { Sql } from '../../sql/db.ts';
import { completenessOf } from './completeness.ts';
import { contentColumns, readContent, type DraftContent, type DraftSection } from './model.ts';
import type { Evidence } from './fields.ts';
import { enqueue, JOBS } from '../jobs/index.ts';

export type DraftStatus = 'crawling' | 'drafting' | 'ready' | 'failed';

export interface ComparisonState {
  status: 'crawling' | 'comparing' | 'ready' | 'failed';
  url: string;
  name: string | null;
  points: { topic: string; product: string | null; competitor: string | null; evidence: Evidence[] }[];
  failure_reason: string | null;
  failure_detail: string | null;
}

export interface DraftRow extends Record<DraftSection, unknown> {
  id: string;
  site_id: number;
  user_id: string;
  url: string;
  domain: string;
  status: DraftStatus;
  failure_reason: string | null;
  failure_detail: string | null;
  fields: unknown;
  seo: { title?: string | null; meta?: string | null };
  competitor_url: string | null;
  comparison: ComparisonState | null;
  regenerating: string[];
  regenerate_error: string | null;
  crawl_skipped: { url: string; reason: string }[];
  completeness: number;
  missing: string[];
  listing_id: number | null;
  submitted_at: Date | null;
  drafted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = (sql: Sql) => sql`
  id::text, site_id, user_id::text, url, domain, status, failure_reason, failure_detail, fields, faqs, founders,
  company_socials, founder_socials, story, milestones, seo, competitor_url, comparison, regenerating, regenerate_error,
  crawl_skipped, completeness, missing, listing_id::int as listing_id, submitted_at, drafted_at, created_at, updated_at`;

export const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/** A draft of this user on this site, or null (another user's draft is "not found" too). */
export async function findDraft(sql: Sql, id: string, who: { userId: string; siteId: number }, opts: { forUpdate?: boolean } = {}): Promise<DraftRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await sql<DraftRow[]>`
    select ${COLUMNS(sql)} from drafts
    where id = ${id} and user_id = ${who.userId} and site_id = ${who.siteId}
    ${opts.forUpdate ? sql`for update` : sql``}`;
  return row ?? null;
}

/** A draft by id alone (the worker's jobs), optionally locked for the rest of the transaction. */
export async function draftById(sql: Sql, id: string, opts: { forUpdate?: boolean } = {}): Promise<DraftRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await sql<DraftRow[]>`select ${COLUMNS(sql)} from drafts where id = ${id} ${opts.forUpdate ? sql`for update` : sql``}`;
  return row ?? null;
}

/** Writes a draft and enqueues its crawl in the caller's transaction. */
export async function insertDraft(sql: Sql, d: { siteId: number; userId: string; url: string; domain: string }): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    insert into drafts (site_id, user_id, url, domain) values (${d.siteId}, ${d.userId}, ${d.url}, ${d.domain})
    returning id::text`;
  await enqueue(sql, JOBS.crawl_draft, { draft_id: row.id });
  return row.id;
}

export interface DraftListItem {
  id: string;
  url: string;
  domain: string;
  name: string | null;
  status: DraftStatus;
  completeness: number;
  listing_id: number | null;
  created_at: Date;
  updated_at: Date;
}

export async function listDrafts(
  sql: Sql,
  who: { userId: string; siteId: number },
  page: number,
  perPage: number,
): Promise<{ items: DraftListItem[]; total: number }> {
  const [{ total }] = await sql<{ total: number }[]>`
    select count(*)::int as total from drafts where user_id = ${who.userId} and site_id = ${who.siteId}`;
  const items = await sql<DraftListItem[]>`
    select id::text, url, domain, fields #>> '{name,value}' as name, status, completeness, listing_id::int as listing_id, created_at, updated_at
    from drafts where user_id = ${who.userId} and site_id = ${who.siteId}
    order by created_at desc, id desc limit ${perPage} offset ${(page - 1) * perPage}`;
  return { items, total };
}

/** Writes the content columns back, with completeness and missing recomputed. */
export async function writeContent(sql: Sql, id: string, content: DraftContent, extra: { regenerating?: string[] } = {}): Promise<void> {
  const cols = contentColumns(content);
  const { completeness, missing } = completenessOf(content);
  const j = (v: unknown) => sql.json(v as never);
  await sql`
    update drafts set
      fields = ${j(cols.fields)}::jsonb, faqs = ${j(cols.faqs)}::jsonb, founders = ${j(cols.founders)}::jsonb,
      company_socials = ${j(cols.company_socials)}::jsonb, founder_socials = ${j(cols.founder_socials)}::jsonb,
      story = ${j(cols.story)}::jsonb, milestones = ${j(cols.milestones)}::jsonb,
      completeness = ${completeness}, missing = ${missing},
      regenerating = coalesce(${extra.regenerating ?? null}::text[], regenerating),
      updated_at = now()
    where id = ${id}`;
}

export const contentOf = (row: DraftRow): DraftContent => readContent(row);

/** Marks a draft failed with a reason the owner sees; only while it is still in progress. */
export async function failDraft(sql: Sql, id: string, reason: string, detail: string): Promise<boolean> {
  const rows = await sql`
    update drafts set status = 'failed', failure_reason = ${reason}, failure_detail = ${detail.slice(0, 2000)}, updated_at = now()
    where id = ${id} and status in ('crawling', 'drafting') returning id`;
  return rows.length > 0;
}
