// What get_draft (and every draft operation) returns. Each part's `value` has the shape the
// same key takes in update_draft; evidence sits beside it (inline on list items).
import type { Sql } from '../../sql/db.ts';
import { DRAFT_FIELDS, type DraftFieldName, type Evidence, type FieldState } from './fields.ts';
import { readContent, type DraftContent, type Quoted } from './model.ts';
import type { DraftRow } from './store.ts';
import { listInvites, type InviteRow } from './invites-store.ts';
import { pageList } from './crawl-store.ts';
import { categorySlugs } from './canonical-categories.ts';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

function mapSection(cell: { state: FieldState | null; value: Partial<Record<string, Quoted>> }) {
  const entries = Object.entries(cell.value).filter(([, q]) => q && typeof q.value === 'string');
  return {
    state: cell.state,
    value: Object.fromEntries(entries.map(([k, q]) => [k, q!.value])),
    evidence: Object.fromEntries(entries.map(([k, q]) => [k, q!.evidence ?? []])),
  };
}

type FieldView = { value: string | string[] | null; state: FieldState | null; evidence: Evidence[] };
type CategoriesView = { value: string[] | null; slugs: (string | null)[]; state: FieldState | null; evidence: Evidence[] };

/** The profile fields; categories also carry `slugs`, the slug of each name in `value` (the
 * value stays names, as update_draft takes them; the slugs are what search filters take). */
export function fieldsView(
  content: DraftContent,
  slugs: (string | null)[],
): Omit<Record<DraftFieldName, FieldView>, 'categories' | 'founded_year'> & { categories: CategoriesView; founded_year: FieldView & { value: string | null } } {
  const out = Object.fromEntries(
    DRAFT_FIELDS.map((f) => {
      const cell = content.fields[f];
      return [f, { value: cell?.value ?? null, state: cell?.state ?? null, evidence: cell?.evidence ?? [] }];
    }),
  ) as Record<DraftFieldName, FieldView>;
  const names = out.categories.value;
  const year = out.founded_year.value;
  return {
    ...out,
    categories: { value: Array.isArray(names) ? names : null, slugs, state: out.categories.state, evidence: out.categories.evidence },
    founded_year: { ...out.founded_year, value: typeof year === 'string' ? year : null },
  };
}

const categoryNames = (content: DraftContent) => {
  const v = content.fields.categories?.value;
  return Array.isArray(v) ? v : [];
};

export function draftView(row: DraftRow, extra: { pages: { url: string; title: string | null }[]; invites: InviteRow[]; categorySlugs: (string | null)[] }) {
  const content = readContent(row);
  const comparison = row.comparison;
  return {
    id: row.id,
    url: row.url,
    domain: row.domain,
    status: row.status,
    failure: row.status === 'failed' ? { reason: row.failure_reason ?? 'unknown', detail: row.failure_detail ?? '' } : null,
    fields: fieldsView(content, extra.categorySlugs),
    faqs: { state: content.faqs.state, value: content.faqs.value.map((f) => ({ question: f.question, answer: f.answer, evidence: f.evidence ?? [] })) },
    founders: {
      state: content.founders.state,
      value: content.founders.value.map((f) => ({
        name: f.name,
        title: f.title ?? null,
        bio: f.bio ?? null,
        evidence: f.evidence ?? [],
        invited: f.invite_id !== undefined,
      })),
    },
    company_socials: mapSection(content.company_socials),
    founder_socials: mapSection(content.founder_socials),
    story: mapSection(content.story),
    milestones: {
      state: content.milestones.state,
      value: content.milestones.value.map((m) => ({
        date: m.date,
        title: m.title,
        description: m.description ?? null,
        url: m.url ?? null,
        evidence: m.evidence ?? [],
      })),
    },
    seo: { title: row.seo.title ?? null, meta: row.seo.meta ?? null },
    competitor_url: row.competitor_url,
    comparison:
      comparison === null
        ? null
        : {
            status: comparison.status,
            competitor: { url: comparison.url, name: comparison.name ?? null },
            points: comparison.points ?? [],
            failure: comparison.status === 'failed' ? { reason: comparison.failure_reason ?? 'unknown', detail: comparison.failure_detail ?? '' } : null,
          },
    regenerating: row.regenerating,
    regenerate_error: row.regenerate_error,
    completeness: row.completeness,
    missing: row.missing,
    crawl: { pages: extra.pages, skipped: row.crawl_skipped ?? [] },
    invites: extra.invites.map((i) => ({ id: i.id, email: i.email, status: i.status, created_at: iso(i.created_at)!, expires_at: iso(i.expires_at)! })),
    listing_id: row.listing_id,
    submitted_at: iso(row.submitted_at),
    drafted_at: iso(row.drafted_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

export type DraftView = ReturnType<typeof draftView>;

/** The full view of a draft row: its crawled pages and invites are read alongside. */
export async function loadDraftView(sql: Sql, row: DraftRow): Promise<DraftView> {
  const [pages, invites, slugs] = await Promise.all([
    pageList(sql, row.id, 'site'),
    listInvites(sql, row.id),
    categorySlugs(sql, categoryNames(readContent(row))),
  ]);
  return draftView(row, { pages, invites, categorySlugs: slugs });
}
