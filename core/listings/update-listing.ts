// update_my_listing: edits publish at once, every edit is a version (before/after, who, credential,
// when) the site team sees in its moderation feed, and apply_to carries the headline, summary and
// SEO fields sent to the company's listings on other sites of the network.
import { transaction, type Sql } from '../../sql/db.ts';
import { DomainError, invalidFields, type FieldIssue } from '../errors/index.ts';
import { LIST_FIELDS, TEXT_FIELDS, TRAVELLING_FIELDS, type EditableField } from './editable.ts';
import { ownListingId, ownsListing, type ListingOwner } from './own-listing.ts';
import { changes, recordVersion, snapshot, type VersionBy } from './versions.ts';
import { settleFindings } from '../recrawl/apply.ts';

export interface ListingEdit {
  fields?: Partial<Record<EditableField, unknown>>;
  socials?: Record<string, string>;
  faqs?: { question: string; answer: string }[];
  apply_to?: string[];
}

export interface AppliedTo {
  site: string;
  listing_id: number;
  fields: string[];
}

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : typeof v === 'string' ? v.trim() : v);

/** Listing columns for the fields sent; a blank string clears a text field. */
function columnsOf(fields: Partial<Record<EditableField, unknown>>): Record<string, unknown> {
  const cols: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    if ((LIST_FIELDS as readonly string[]).includes(k)) cols[k] = (v as string[]).map((s) => s.trim()).filter(Boolean);
    else if (k === 'country') cols[k] = typeof v === 'string' && v.trim() ? v.trim().toUpperCase() : null;
    else if (k === 'founded_year') cols[k] = v;
    else if (k in TEXT_FIELDS) cols[k] = blankToNull(v);
  }
  return cols;
}

/** The other sites apply_to names (["all"]: every site of the network); 400 naming each unknown key. */
async function targetSites(sql: Sql, applyTo: string[], ownSiteId: number): Promise<{ id: number; key: string }[]> {
  if (applyTo.length === 0) return [];
  if (applyTo.includes('all')) {
    if (applyTo.length > 1) throw invalidFields([{ field: 'apply_to', message: 'is either ["all"] or a list of site keys, not both' }]);
    return sql<{ id: number; key: string }[]>`select id, key from sites where id <> ${ownSiteId} order by key`;
  }
  const found = await sql<{ id: number; key: string }[]>`select id, key from sites where key = any(${applyTo}::text[])`;
  const known = new Set(found.map((s) => s.key));
  const issues: FieldIssue[] = applyTo.flatMap((k, i) => (known.has(k) ? [] : [{ field: `apply_to.${i}`, message: `names no site of the network ("${k}")` }]));
  if (issues.length) throw invalidFields(issues);
  return found.filter((s) => s.id !== ownSiteId);
}

async function writeListing(
  t: Sql,
  id: number,
  cols: Record<string, unknown>,
  edit: Pick<ListingEdit, 'socials' | 'faqs'>,
  by: VersionBy,
): Promise<{ version: number | null; status: string }> {
  const parts = [...Object.keys(cols), ...(edit.socials ? ['socials'] : []), ...(edit.faqs ? ['faqs'] : [])];
  const before = await snapshot(t, id, parts);
  if (Object.keys(cols).length) await t`update listings set ${t(cols)} where id = ${id}`;
  if (edit.socials) {
    await t`delete from listing_socials where listing_id = ${id}`;
    for (const [platform, url] of Object.entries(edit.socials)) {
      if (url.trim()) await t`insert into listing_socials (listing_id, platform, url) values (${id}, ${platform}, ${url.trim()})`;
    }
  }
  if (edit.faqs) {
    await t`delete from listing_faqs where listing_id = ${id}`;
    for (const [i, f] of edit.faqs.entries()) {
      await t`insert into listing_faqs (listing_id, position, question, answer) values (${id}, ${i}, ${f.question}, ${f.answer})`;
    }
  }
  const diff = changes(before, await snapshot(t, id, parts));
  const [row] = await t<{ status: string }[]>`
    update listings set updated_at = case when ${diff !== null} then now() else updated_at end where id = ${id} returning status`;
  return { version: diff ? await recordVersion(t, id, by, diff) : null, status: row.status };
}

/** Applies one edit; returns the version recorded (null when nothing changed) and where apply_to wrote. */
export async function updateMyListing(owner: ListingOwner, id: number, edit: ListingEdit): Promise<{ version_id: number | null; applied_to: AppliedTo[] }> {
  return transaction(owner.sql, async (t) => {
    const listingId = await ownListingId(t, owner, id, { forUpdate: true });
    const by: VersionBy = { userId: owner.userId, credential: owner.credential, operation: 'update_my_listing' };
    const cols = columnsOf(edit.fields ?? {});
    const targets = await targetSites(t, edit.apply_to ?? [], owner.siteId);
    const own = await writeListing(t, listingId, cols, edit, by);
    // Sending a field settles what a re-crawl found for it: its proposal is accepted (or declined) and its vanished flag cleared.
    await settleFindings(t, listingId, Object.keys(cols));
    let published = own.status !== 'draft';

    const travelling = Object.fromEntries(Object.entries(cols).filter(([k]) => (TRAVELLING_FIELDS as readonly string[]).includes(k)));
    const applied: AppliedTo[] = [];
    if (targets.length && Object.keys(travelling).length) {
      const others = await t<{ id: number; site_key: string; site_name: string; mine: boolean }[]>`
        select o.id::int, s.key as site_key, s.name as site_name, ${ownsListing(t, owner.userId, 'o')} as mine
        from listings o join sites s on s.id = o.site_id
        where o.company_id = (select company_id from listings where id = ${listingId})
          and o.site_id = any(${targets.map((s) => s.id)}::int[]) and o.id <> ${listingId}
        order by s.key, o.id for update of o`;
      // Sharing a domain is not owning: every target must be the caller's own listing, or nothing is written anywhere.
      const refused = others.filter((o) => !o.mine);
      if (refused.length) {
        throw new DomainError(
          'apply_to_not_owned',
          `You do not own the listing of this product on ${refused.map((o) => `${o.site_name} (${o.site_key})`).join(', ')}, so nothing was changed; leave ${refused.length === 1 ? 'that site' : 'those sites'} out of apply_to, or claim the listing there first.`,
          { fields: refused.map((o) => ({ field: 'apply_to', message: `you do not own the listing on site "${o.site_key}"` })) },
        );
      }
      for (const o of others) {
        const res = await writeListing(t, o.id, travelling, {}, by);
        published ||= res.status !== 'draft';
        applied.push({ site: o.site_key, listing_id: o.id, fields: Object.keys(travelling) });
      }
    }
    // Public reads (and every edge's cache) change at once; a draft is on no public page.
    if (published) await t`select directory_changed()`;
    return { version_id: own.version, applied_to: applied };
  });
}
