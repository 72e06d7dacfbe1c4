// What a re-crawl writes. A value still in the AI's hands (never edited
// by the owner) is refreshed with its new quotes; a value the owner edited, locked or wrote is
// never overwritten: the new value becomes a proposed change (with its quotes) the owner sees in
// get_my_listing and accepts by sending it with update_my_listing. A fact the site no longer
// states is kept and flagged as vanished, never deleted. not_found_on_website is recomputed.
import type { Sql } from '../../sql/db.ts';
import { fieldColumns } from '../drafts/listing-sync.ts';
import { DRAFT_FIELDS, isListField, type DraftFieldName, type Evidence } from '../drafts/fields.ts';
import { readContent, type AiProposal, type DraftContent, type FieldCell } from '../drafts/model.ts';
import { contentOf, draftById, writeContent } from '../drafts/store.ts';

/** The profile fields a re-crawl looks at: the draft's fields the owner can also edit on the listing. */
export const RECRAWL_FIELDS = [
  'tagline',
  'short_description',
  'description',
  'pricing_model',
  'pricing_summary',
  'country',
  'city',
  'founded_year',
  'contact_email',
  'demo_video_url',
  'features',
  'usps',
  'keywords',
] as const satisfies readonly DraftFieldName[];
export type RecrawlField = (typeof RECRAWL_FIELDS)[number];

/** Draft states that mean the value is the owner's (spec section 3). */
const OWNER_STATES = new Set(['edited', 'manual', 'override', 'deleted']);

export interface RecrawlOutcome {
  refreshed: RecrawlField[];
  proposed: RecrawlField[];
  vanished: RecrawlField[];
  notFound: DraftFieldName[];
}

const isEmpty = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Fields that are the owner's: a draft state of theirs (edited, manual, override, deleted), or any
 * owner edit in listing_versions (update_my_listing after submission). A seeded listing without a
 * draft is all AI except what its versions show edited.
 */
export async function ownerFields(sql: Sql, listingId: number, draft: DraftContent | null): Promise<Set<string>> {
  const owned = new Set<string>();
  if (draft) for (const f of RECRAWL_FIELDS) if (OWNER_STATES.has(draft.fields[f]?.state ?? '')) owned.add(f);
  const edited = await sql<{ k: string }[]>`select distinct jsonb_object_keys(after) as k from listing_versions where listing_id = ${listingId}`;
  for (const e of edited) owned.add(e.k);
  return owned;
}

/** A content holding just the proposal's values, for the listing's own conversions (fieldColumns). */
function proposalContent(p: AiProposal): DraftContent {
  const content = readContent({ fields: {}, faqs: {}, founders: {}, company_socials: {}, founder_socials: {}, story: {}, milestones: {} });
  for (const f of DRAFT_FIELDS) {
    const v = p.fields[f];
    if (v && !isEmpty(v.value)) content.fields[f] = { value: v.value, state: 'ai', evidence: v.evidence, ai: null };
  }
  return content;
}

/**
 * Writes a re-crawl's proposal into the listing (and its draft), in the caller's transaction with
 * the listing locked. Returns what became of each field.
 */
export async function applyRecrawl(sql: Sql, listingId: number, proposal: AiProposal, batchId: string | null): Promise<RecrawlOutcome> {
  const [listing] = await sql<Record<string, unknown>[]>`select * from listings where id = ${listingId} for update`;
  if (!listing) throw new Error(`listing ${listingId} is gone`);
  const [draftRow] = await sql<{ id: string }[]>`select id::text from drafts where listing_id = ${listingId}`;
  const row = draftRow ? await draftById(sql, draftRow.id, { forUpdate: true }) : null;
  const draft = row ? contentOf(row) : null;
  const owned = await ownerFields(sql, listingId, draft);
  const fresh = fieldColumns(proposalContent(proposal), [...RECRAWL_FIELDS], String(listing.domain), []);

  const outcome: RecrawlOutcome = { refreshed: [], proposed: [], vanished: [], notFound: [] };
  const cols: Record<string, unknown> = {};
  const findings: { field: string; kind: 'proposed' | 'vanished' | 'refreshed'; value: unknown; evidence: Evidence[] }[] = [];
  for (const f of RECRAWL_FIELDS) {
    const next = fresh[f];
    const current = listing[f];
    const evidence = isEmpty(next) ? [] : (proposal.fields[f]?.evidence ?? []);
    if (owned.has(f)) {
      if (!isEmpty(next) && !same(next, current)) {
        findings.push({ field: f, kind: 'proposed', value: next, evidence });
        outcome.proposed.push(f);
      }
      if (draft) draft.fields[f] = { ...(draft.fields[f] as FieldCell), ai: { value: (proposal.fields[f]?.value as never) ?? null, evidence } };
      continue;
    }
    if (isEmpty(next)) {
      if (!isEmpty(current)) {
        findings.push({ field: f, kind: 'vanished', value: current, evidence: [] });
        outcome.vanished.push(f);
      }
      continue;
    }
    let value = next;
    if (isListField(f) && Array.isArray(current)) {
      // Items the site no longer states stay on the listing, flagged; new ones are added.
      const gone = (current as string[]).filter((item) => !(next as string[]).includes(item));
      if (gone.length) {
        findings.push({ field: f, kind: 'vanished', value: gone, evidence: [] });
        outcome.vanished.push(f);
        value = [...(next as string[]), ...gone];
      }
    }
    cols[f] = value;
    findings.push({ field: f, kind: 'refreshed', value: next, evidence });
    outcome.refreshed.push(f);
    if (draft) {
      const cell: FieldCell = { value: value as never, state: 'ai', evidence, ai: { value: proposal.fields[f]!.value as never, evidence } };
      draft.fields[f] = cell;
    }
  }
  outcome.notFound = DRAFT_FIELDS.filter((f) => isEmpty(proposal.fields[f]?.value));

  await sql`delete from listing_findings where listing_id = ${listingId}`;
  if (findings.length) {
    await sql`insert into listing_findings ${sql(
      findings.map((x) => ({
        listing_id: listingId,
        field: x.field,
        kind: x.kind,
        value: sql.json(x.value as never),
        evidence: sql.json(x.evidence as never),
        batch_id: batchId,
      })),
      'listing_id',
      'field',
      'kind',
      'value',
      'evidence',
      'batch_id',
    )}`;
  }
  await sql`update listings set ${sql({ ...cols, not_found_on_website: outcome.notFound, last_crawled_at: new Date(), updated_at: new Date() })} where id = ${listingId}`;
  if (draft && draftRow) await writeContent(sql, draftRow.id, draft);
  if (outcome.refreshed.length && listing.status !== 'draft') await sql`select directory_changed()`;
  return outcome;
}

export interface OwnerFindings {
  proposed_changes: { field: string; value: unknown; evidence: Evidence[]; found_at: string }[];
  vanished: { field: string; value: unknown; found_at: string }[];
}

/** What get_my_listing shows of the last re-crawl. */
export async function ownerFindings(sql: Sql, listingId: number): Promise<OwnerFindings> {
  const rows = await sql<{ field: string; kind: string; value: unknown; evidence: Evidence[]; found_at: string }[]>`
    select field, kind, value, evidence, to_char(found_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as found_at
    from listing_findings where listing_id = ${listingId} and kind in ('proposed', 'vanished') order by field, kind`;
  return {
    proposed_changes: rows.filter((r) => r.kind === 'proposed').map((r) => ({ field: r.field, value: r.value, evidence: r.evidence, found_at: r.found_at })),
    vanished: rows.filter((r) => r.kind === 'vanished').map((r) => ({ field: r.field, value: r.value, found_at: r.found_at })),
  };
}

/** The owner sent these fields with update_my_listing: their proposals and vanished flags are settled. */
export async function settleFindings(sql: Sql, listingId: number, fields: string[]): Promise<void> {
  if (!fields.length) return;
  await sql`delete from listing_findings where listing_id = ${listingId} and kind in ('proposed', 'vanished') and field = any(${fields}::text[])`;
}
