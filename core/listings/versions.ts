// The version history of listing edits: the changed parts before and after, who, which credential, when.
// The moderation feed (a view over these rows, per site) is the site team's before/after copy.
import type { Sql } from '../../sql/db.ts';
import { EDITABLE_FIELDS } from './editable.ts';

export type Snapshot = Record<string, unknown>;

/** The listing's current values of the named parts: editable fields by name, plus socials and faqs. */
export async function snapshot(sql: Sql, listingId: number, parts: string[]): Promise<Snapshot> {
  const fields = parts.filter((p) => (EDITABLE_FIELDS as string[]).includes(p));
  const [row] = await sql<{ l: Record<string, unknown>; socials: Record<string, string>; faqs: unknown[] }[]>`
    select to_jsonb(l) as l,
      (select coalesce(jsonb_object_agg(so.platform, so.url), '{}') from listing_socials so where so.listing_id = l.id) as socials,
      (select coalesce(jsonb_agg(jsonb_build_object('question', q.question, 'answer', q.answer) order by q.position, q.id), '[]')
       from listing_faqs q where q.listing_id = l.id) as faqs
    from listings l where l.id = ${listingId}`;
  const out: Snapshot = {};
  for (const f of fields) out[f] = row.l[f] ?? null;
  if (parts.includes('socials')) out.socials = row.socials;
  if (parts.includes('faqs')) out.faqs = row.faqs;
  return out;
}

/** Keeps only the parts whose value changed; both sides, or null when nothing changed. */
export function changes(before: Snapshot, after: Snapshot): { before: Snapshot; after: Snapshot } | null {
  const b: Snapshot = {};
  const a: Snapshot = {};
  for (const k of Object.keys(after)) {
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) {
      b[k] = before[k] ?? null;
      a[k] = after[k];
    }
  }
  return Object.keys(a).length ? { before: b, after: a } : null;
}

export interface VersionBy {
  userId: string;
  credential: string;
  operation: string;
}

export async function recordVersion(sql: Sql, listingId: number, by: VersionBy, diff: { before: Snapshot; after: Snapshot }): Promise<number> {
  const [row] = await sql<{ id: number }[]>`
    insert into listing_versions (listing_id, site_id, user_id, credential, operation, before, after)
    select id, site_id, ${by.userId}::bigint, ${by.credential}, ${by.operation}, ${sql.json(diff.before as never)}, ${sql.json(diff.after as never)}
    from listings where id = ${listingId}
    returning id::int`;
  return row.id;
}

export interface VersionRow {
  id: number;
  site_key: string;
  listing_id: number;
  slug: string;
  name: string;
  operation: string;
  editor_email: string | null;
  credential: string;
  before: Snapshot;
  after: Snapshot;
  created_at: Date;
}

/** The moderation feed of one site (or all), newest first. */
export async function moderationFeed(sql: Sql, opts: { siteKey?: string; limit?: number; listingId?: number } = {}): Promise<VersionRow[]> {
  return sql<VersionRow[]>`
    select id::int, site_key, listing_id::int, slug, name, operation, editor_email, credential, before, after, created_at
    from moderation_feed
    where true ${opts.siteKey ? sql`and site_key = ${opts.siteKey}` : sql``} ${opts.listingId ? sql`and listing_id = ${opts.listingId}` : sql``}
    order by id desc limit ${opts.limit ?? 20}`;
}
