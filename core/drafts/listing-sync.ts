// Turns a draft into its listing (submit_draft) and keeps the listing in step afterwards
// (update_draft and the regenerate job after submission), in the caller's transaction.
// The listing's own rules are tighter than the draft's in places (tagline 200, country as an
// ISO code, founded year as a number, stage as a slug): a value that does not fit is cut or
// left out, and the caller is told which (adjusted).
import type { Sql } from '../../sql/db.ts';
import { FAQ_MAX, LIST_ITEM_MAX, LIST_MAX_ITEMS, LISTING_TEXT_MAX, MILESTONE_URL_MAX, STORY_TITLE_MAX, YEAR_MAX, YEAR_MIN } from './bounds.ts';
import { DRAFT_FIELDS, type DraftFieldName } from './fields.ts';
import { isSection, notFoundFields, type DraftContent, type DraftPart } from './model.ts';

export interface Adjustment {
  field: string;
  note: string;
}
/** Which parts of the listing to write: everything (submit_draft) or the parts an update touched. */
export type SyncScope = 'all' | ReadonlySet<DraftPart | 'seo'>;

export interface SyncDraft {
  id: string;
  site_id: number;
  user_id: string;
  url: string;
  domain: string;
  listing_id: number | null;
  seo: { title?: string | null; meta?: string | null };
}

const SLUG_MAX = 220;
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
}

/** Cuts text to max characters at a word boundary when there is one in the last fifth. */
export function cutWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.8 ? cut.slice(0, space) : cut).trimEnd();
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : []);

// Text fields whose listing column is shorter than the draft's bound: cut to the listing's.
const CUT: Partial<Record<DraftFieldName, number>> = LISTING_TEXT_MAX;

/** The listing columns for the profile fields in scope (also what a re-crawl writes, core/recrawl). */
export function fieldColumns(content: DraftContent, fields: DraftFieldName[], domain: string, adjusted: Adjustment[]): Record<string, unknown> {
  const cols: Record<string, unknown> = {};
  const value = (f: DraftFieldName) => content.fields[f]?.value ?? null;
  for (const f of fields) {
    const v = value(f);
    switch (f) {
      case 'categories':
      case 'tags':
        break; // categories: listing_categories; tags: no listing field, kept on the draft
      case 'name': {
        const name = str(v);
        if (name === null) adjusted.push({ field: 'name', note: `no name on the draft: the listing is named after its domain (${domain})` });
        cols.name = cutWords(name ?? domain, LISTING_TEXT_MAX.name);
        break;
      }
      case 'stage': {
        const s = str(v);
        const slug = s === null ? null : slugify(s);
        if (s !== null && !slug) adjusted.push({ field: f, note: 'not usable as a stage name; left out of the listing' });
        cols.stage = slug || null;
        break;
      }
      case 'country': {
        const s = str(v);
        const ok = s !== null && /^[A-Za-z]{2}$/.test(s);
        if (s !== null && !ok) adjusted.push({ field: f, note: 'the listing takes a two-letter ISO country code; left out of the listing' });
        cols.country = ok ? s!.toUpperCase() : null;
        break;
      }
      case 'founded_year': {
        const s = str(v);
        const year = s !== null && /^\d{4}$/.test(s) ? Number(s) : NaN;
        const ok = year >= YEAR_MIN && year <= YEAR_MAX;
        if (s !== null && !ok) adjusted.push({ field: f, note: `the listing takes a year ${YEAR_MIN}..${YEAR_MAX}; left out of the listing` });
        cols.founded_year = ok ? year : null;
        break;
      }
      case 'contact_email': {
        const s = str(v);
        const max = LISTING_TEXT_MAX.contact_email;
        if (s !== null && s.length > max) adjusted.push({ field: f, note: `longer than an e-mail address can be (${max}); left out of the listing` });
        cols.contact_email = s !== null && s.length <= max ? s : null;
        break;
      }
      case 'features':
      case 'usps':
      case 'keywords':
        cols[f] = list(v)
          .slice(0, LIST_MAX_ITEMS)
          .map((x) => x.slice(0, LIST_ITEM_MAX));
        break;
      case 'demo_video_url':
      case 'logo_url':
        cols[f] = str(v);
        break;
      default: {
        const s = str(v);
        const max = CUT[f];
        if (s !== null && max !== undefined && s.length > max) adjusted.push({ field: f, note: `cut to ${max} characters (the listing's bound)` });
        cols[f] = s === null || max === undefined ? s : cutWords(s, max);
      }
    }
  }
  return cols;
}

async function uniqueSlug(sql: Sql, table: 'listings' | 'founders', base: string, siteId?: number): Promise<string> {
  const root = (base || 'listing').slice(0, SLUG_MAX - 8).replace(/-+$/, '');
  const taken =
    table === 'listings'
      ? await sql<{ slug: string }[]>`select slug from listings where site_id = ${siteId!} and (slug = ${root} or slug like ${root + '-%'})`
      : await sql<{ slug: string }[]>`select slug from founders where slug = ${root} or slug like ${root + '-%'}`;
  const used = new Set(taken.map((t) => t.slug));
  if (!used.has(root)) return root;
  for (let n = 2; ; n++) if (!used.has(`${root}-${n}`)) return `${root}-${n}`;
}

async function companyFor(sql: Sql, draft: SyncDraft, name: string): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    insert into companies (name, domain, website_url) values (${name}, ${draft.domain}, ${draft.url})
    on conflict ((lower(domain))) do update set domain = companies.domain
    returning id::text`;
  return row.id;
}

async function syncCategories(sql: Sql, listingId: number, content: DraftContent, adjusted: Adjustment[]): Promise<void> {
  const names = list(content.fields.categories?.value);
  const [listing] = await sql<{ plan: string }[]>`select plan from listings where id = ${listingId}`;
  const found =
    names.length === 0
      ? []
      : await sql<{ id: number; lname: string }[]>`
    select distinct on (lower(name)) id, lower(name) as lname from categories
    where lower(name) = any(${names.map((n) => n.toLowerCase())}::text[])
    order by lower(name), (parent_id is not null), position, id`;
  const byName = new Map(found.map((c) => [c.lname, c.id]));
  const ids = [...new Set(names.map((n) => byName.get(n.toLowerCase())).filter((id): id is number => id !== undefined))];
  // A free listing has one category; extra ones come with a paid plan (spec section 2).
  const keep = listing.plan === 'paid' ? ids.slice(0, 4) : ids.slice(0, 1);
  if (ids.length > keep.length) {
    adjusted.push({
      field: 'categories',
      note:
        listing.plan === 'paid'
          ? 'a listing has at most 3 extra categories'
          : 'a free listing has one category (the first); extra categories come with a paid plan',
    });
  }
  await sql`delete from listing_categories where listing_id = ${listingId}`;
  for (const [i, id] of keep.entries()) {
    await sql`insert into listing_categories (listing_id, category_id, is_primary) values (${listingId}, ${id}, ${i === 0})`;
  }
  await sql`update listings set primary_category_id = ${keep[0] ?? null} where id = ${listingId}`;
}

async function syncFounders(sql: Sql, listingId: number, content: DraftContent): Promise<void> {
  const old = await sql<{ founder_id: string; name: string; shared: boolean }[]>`
    select lf.founder_id::text, f.name,
           exists (select 1 from listing_founders o where o.founder_id = lf.founder_id and o.listing_id <> ${listingId}) as shared
    from listing_founders lf join founders f on f.id = lf.founder_id where lf.listing_id = ${listingId}`;
  await sql`delete from listing_founders where listing_id = ${listingId}`;
  const unused = new Map(old.map((o) => [o.founder_id, o]));
  const socials = Object.fromEntries(
    Object.entries(content.founder_socials.value)
      .filter(([, q]) => q && str(q.value))
      .map(([k, q]) => [k, q!.value]),
  );
  for (const [i, item] of content.founders.value.entries()) {
    const title = str(item.title);
    const bio = str(item.bio);
    const mine = i === 0 ? socials : {};
    const match = [...unused.values()].find((o) => o.name.toLowerCase() === item.name.trim().toLowerCase());
    let founderId: string;
    if (match) {
      unused.delete(match.founder_id);
      founderId = match.founder_id;
      // A founder also linked to another listing keeps their own profile; only the role here changes.
      if (!match.shared) {
        await sql`update founders set name = ${item.name.trim()}, title = ${title}, bio = ${bio},
                  socials = ${sql.json(mine as never)}::jsonb, user_id = coalesce(${item.user_id ?? null}::bigint, user_id)
                  where id = ${founderId}`;
      }
    } else {
      const slug = await uniqueSlug(sql, 'founders', slugify(item.name) || 'founder');
      const [row] = await sql<{ id: string }[]>`
        insert into founders (slug, user_id, name, title, bio, socials)
        values (${slug}, ${item.user_id ?? null}::bigint, ${item.name.trim()}, ${title}, ${bio}, ${sql.json(mine as never)}::jsonb)
        returning id::text`;
      founderId = row.id;
    }
    await sql`insert into listing_founders (listing_id, founder_id, role, position) values (${listingId}, ${founderId}, ${title}, ${i})`;
  }
  // Founder records this listing made and no longer names go; anyone's own profile stays.
  const gone = [...unused.values()].filter((o) => !o.shared).map((o) => o.founder_id);
  if (gone.length) {
    await sql`delete from founders f where f.id = any(${gone}::bigint[]) and f.user_id is null
              and not exists (select 1 from listing_founders lf where lf.founder_id = f.id)`;
  }
}

async function syncSections(sql: Sql, listingId: number, content: DraftContent, has: (p: DraftPart | 'seo') => boolean, adjusted: Adjustment[]): Promise<void> {
  if (has('faqs')) {
    await sql`delete from listing_faqs where listing_id = ${listingId}`;
    for (const [i, f] of content.faqs.value.slice(0, FAQ_MAX).entries()) {
      await sql`insert into listing_faqs (listing_id, position, question, answer) values (${listingId}, ${i}, ${f.question}, ${f.answer})`;
    }
  }
  if (has('company_socials')) {
    await sql`delete from listing_socials where listing_id = ${listingId}`;
    for (const [platform, q] of Object.entries(content.company_socials.value)) {
      if (q && str(q.value)) await sql`insert into listing_socials (listing_id, platform, url) values (${listingId}, ${platform}, ${q.value.trim()})`;
    }
  }
  if (has('founders') || has('founder_socials')) await syncFounders(sql, listingId, content);
  if (has('story')) {
    const s = Object.fromEntries(Object.entries(content.story.value).map(([k, q]) => [k, str(q?.value)]));
    if (Object.values(s).every((v) => v === null)) {
      await sql`delete from founder_stories where listing_id = ${listingId}`;
    } else {
      if (s.title && s.title.length > STORY_TITLE_MAX)
        adjusted.push({ field: 'story', note: `the title is cut to ${STORY_TITLE_MAX} characters (the listing's bound)` });
      const row = {
        listing_id: listingId,
        title: s.title ? cutWords(s.title, STORY_TITLE_MAX) : null,
        story: s.story ?? null,
        why_started: s.why_started ?? null,
        problem: s.problem ?? null,
        journey: s.journey ?? null,
        challenges: s.challenges ?? null,
        achievements: s.achievements ?? null,
        lessons: s.lessons ?? null,
        whats_next: s.whats_next ?? null,
      };
      await sql`
        insert into founder_stories ${sql(row)}
        on conflict (listing_id) do update set title = excluded.title, story = excluded.story, why_started = excluded.why_started,
          problem = excluded.problem, journey = excluded.journey, challenges = excluded.challenges, achievements = excluded.achievements,
          lessons = excluded.lessons, whats_next = excluded.whats_next, updated_at = now()`;
    }
  }
  if (has('milestones')) {
    await sql`delete from milestones where listing_id = ${listingId}`;
    for (const m of content.milestones.value) {
      const url = m.url && /^https:\/\//.test(m.url) && m.url.length <= MILESTONE_URL_MAX ? m.url : null;
      if (m.url && !url) adjusted.push({ field: 'milestones', note: `the link of "${m.title}" is not an https link; left out of the listing` });
      await sql`insert into milestones (listing_id, date, title, description, url)
                values (${listingId}, ${m.date}::date, ${m.title}, ${m.description ?? null}, ${url})`;
    }
  }
}

/**
 * Writes the draft's content into its listing, making the listing (status draft, not yet
 * published, owned by the draft's user) when there is none. Returns the listing id and the
 * values that had to be cut or left out. Calls directory_changed() when the listing is public.
 */
export async function syncListing(
  sql: Sql,
  draft: SyncDraft,
  content: DraftContent,
  scope: SyncScope,
): Promise<{ listingId: number; created: boolean; adjusted: Adjustment[] }> {
  const adjusted: Adjustment[] = [];
  let listingId = draft.listing_id;
  let created = false;
  if (listingId !== null) {
    const [exists] = await sql`select 1 from listings where id = ${listingId}`;
    if (!exists) listingId = null;
  }
  if (listingId === null) {
    const name = cutWords(str(content.fields.name?.value) ?? draft.domain, LISTING_TEXT_MAX.name);
    const companyId = await companyFor(sql, draft, name);
    const slug = await uniqueSlug(sql, 'listings', slugify(name) || slugify(draft.domain), draft.site_id);
    const [row] = await sql<{ id: number }[]>`
      insert into listings (site_id, company_id, owner_user_id, slug, name, url, domain, status)
      values (${draft.site_id}, ${companyId}, ${draft.user_id}, ${slug}, ${name}, ${draft.url}, ${draft.domain}, 'draft')
      returning id::int`;
    listingId = row.id;
    created = true;
    scope = 'all';
  }
  const has = (p: DraftPart | 'seo') => scope === 'all' || scope.has(p);
  const fields = DRAFT_FIELDS.filter((f) => has(f));
  const cols = fieldColumns(content, fields, draft.domain, adjusted);
  if (has('seo')) {
    cols.seo_title = str(draft.seo.title);
    cols.seo_description = str(draft.seo.meta);
  }
  if (fields.length) cols.not_found_on_website = notFoundFields(content);
  cols.updated_at = new Date();
  await sql`update listings set ${sql(cols)} where id = ${listingId}`;
  if (has('categories')) await syncCategories(sql, listingId, content, adjusted);
  await syncSections(sql, listingId, content, has, adjusted);
  const [listing] = await sql<{ status: string }[]>`select status from listings where id = ${listingId}`;
  // A listing in status draft is on no public page; once published, public reads must refresh.
  if (listing.status !== 'draft') await sql`select directory_changed()`;
  return { listingId, created, adjusted };
}

/** The parts of a listing an update_draft call touches (sections and fields by name, seo). */
export function syncScopeOf(parts: Iterable<string>): Set<DraftPart | 'seo'> {
  const out = new Set<DraftPart | 'seo'>();
  for (const p of parts) if (p === 'seo' || isSection(p) || (DRAFT_FIELDS as readonly string[]).includes(p)) out.add(p as DraftPart | 'seo');
  return out;
}
