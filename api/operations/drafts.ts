import { Type, type TSchema } from '@sinclair/typebox';
import { defineOperation, type Operation, type OperationContext, type Principal } from '../registry/operation.ts';
import { ListOf, Nullable, Paging } from '../registry/schemas.ts';
import { DomainError, invalid, notFound, type FieldIssue } from '../../sql/errors.ts';
import type { Sql } from '../../sql/db.ts';
import {
  DRAFT_LIST_FIELDS, DRAFT_TEXT_FIELDS, FIELD_STATES, LIST_ITEM_MAX, LIST_MAX_ITEMS, SOCIAL_PLATFORMS, STORY_SECTIONS, TEXT_MAX,
  type DraftFieldName,
} from '../../sql/drafts/fields.ts';
import {
  DRAFT_PARTS, DRAFT_SECTIONS, aiDrafted, isSection, lockPart, restorePart, setField, setSection, stateOf,
  type DraftContent, type DraftPart, type DraftSection, type SectionValues,
} from '../../sql/drafts/model.ts';
import { normaliseSubmittedUrl, URL_MAX } from '../../sql/drafts/submitted-url.ts';
import { syncListing, syncScopeOf } from '../../sql/drafts/listing-sync.ts';
import { contentOf, draftById, findDraft, insertDraft, listDrafts, writeContent, type DraftRow } from '../../sql/queries/drafts.ts';
import { loadDraftView } from '../../sql/queries/drafts-view.ts';
import { createInvite, INVITES_MAX, INVITE_TTL_DAYS } from '../../sql/queries/drafts-invites.ts';
import { enqueueMail } from '../../sql/mail/outbox.ts';
import { pageInfo } from '../../sql/queries/summaries.ts';

const notes = (...lines: string[]) => lines.join('\n\n');
const Iso = Type.String({ format: 'date-time' });
const Uuid = Type.String({ format: 'uuid', description: 'The draft id (a UUID).' });
const IdPath = Type.Object({ id: Uuid }, { additionalProperties: false });

// ---- schemas -------------------------------------------------------------------------------

const PartName = Type.Union(DRAFT_PARTS.map((p) => Type.Literal(p)), {
  description: `A profile field (${DRAFT_TEXT_FIELDS.join(', ')}, ${DRAFT_LIST_FIELDS.join(', ')}) or a section (${DRAFT_SECTIONS.join(', ')}).`,
});
const Evidence = Type.Object({
  quote: Type.String({ description: 'Words quoted exactly from the visible text of the page.' }),
  url: Type.String({ description: 'The crawled page the quote is on.' }),
});
const Evidences = Type.Array(Evidence);
const State = Nullable(Type.Union(FIELD_STATES.map((s) => Type.Literal(s)), {
  description: 'ai: drafted from the website; not_found: the website does not state it; edited: the user changed an AI value; manual: the user filled an empty field; override: locked against AI redrafts; deleted: removed by the user. null: not drafted yet.',
}));

const fieldInputs: Record<string, TSchema> = {};
for (const f of DRAFT_TEXT_FIELDS) fieldInputs[f] = Type.Optional(Nullable(Type.String({ maxLength: TEXT_MAX[f] })));
for (const f of DRAFT_LIST_FIELDS) {
  fieldInputs[f] = Type.Optional(Nullable(Type.Array(Type.String({ maxLength: LIST_ITEM_MAX }), { maxItems: LIST_MAX_ITEMS })));
}
const FieldsInput = Type.Object(fieldInputs, {
  additionalProperties: false,
  description: 'Draft profile fields (spec section 2). A value marks the field the user\'s own (edited or manual); null or a blank value deletes it. categories must be names from list_categories, the first is primary.',
});

const Faq = Type.Object({ question: Type.String({ minLength: 1, maxLength: 300 }), answer: Type.String({ minLength: 1, maxLength: 1500 }) }, { additionalProperties: false });
const Founder = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 160 }),
  title: Type.Optional(Nullable(Type.String({ maxLength: 160, description: 'The role.' }))),
  bio: Type.Optional(Nullable(Type.String({ maxLength: 3000 }))),
}, { additionalProperties: false });
const Socials = Type.Object(Object.fromEntries(SOCIAL_PLATFORMS.map((p) => [p, Type.Optional(Type.String({ maxLength: 500 }))])), {
  additionalProperties: false, description: `Platform (${SOCIAL_PLATFORMS.join(', ')}) to link. Replaces all links; an empty string or a platform left out removes it.`,
});
const Story = Type.Object(Object.fromEntries(STORY_SECTIONS.map((s) => [s, Type.Optional(Type.String({ maxLength: 8000 }))])), {
  additionalProperties: false, description: `Founder story sections (${STORY_SECTIONS.join(', ')}), each max 8000. Replaces the whole story.`,
});
const Milestone = Type.Object({
  date: Type.String({ format: 'date', description: 'YYYY-MM-DD.' }),
  title: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  url: Type.Optional(Nullable(Type.String({ maxLength: 500, pattern: '^https://', description: 'An https link.' }))),
}, { additionalProperties: false });

const UpdateBody = Type.Object({
  fields: Type.Optional(FieldsInput),
  lock_fields: Type.Optional(Type.Array(PartName, { maxItems: 20, description: 'Lock these against AI redrafts (state override).' })),
  regenerate: Type.Optional(Type.Array(PartName, { maxItems: 5, description: 'Redraft these from the stored crawl (a job; they are listed in `regenerating` until done).' })),
  restore: Type.Optional(Type.Array(PartName, { maxItems: 20, description: 'Bring back the AI\'s value and evidence.' })),
  faqs: Type.Optional(Type.Array(Faq, { maxItems: 10, description: 'Replaces all FAQs.' })),
  company_socials: Type.Optional(Socials),
  founder_socials: Type.Optional(Socials),
  founders: Type.Optional(Type.Array(Founder, { maxItems: 6, description: 'Replaces the list; the first is the primary founder.' })),
  story: Type.Optional(Story),
  milestones: Type.Optional(Type.Array(Milestone, { maxItems: 50, description: 'Replaces all milestones.' })),
  competitor_url: Type.Optional(Type.String({ maxLength: URL_MAX, description: 'A competitor\'s public website to read and compare with; an empty string clears it.' })),
  seo: Type.Optional(Type.Object({
    title: Type.Optional(Type.String({ maxLength: 70 })),
    meta: Type.Optional(Type.String({ maxLength: 170 })),
  }, { additionalProperties: false, description: 'Replaces the SEO title and meta description; a key left out or empty clears it.' })),
}, { additionalProperties: false });

const FieldOut = Type.Object({
  value: Nullable(Type.Union([Type.String(), Type.Array(Type.String())])),
  state: State,
  evidence: Evidences,
});
const MapSection = Type.Object({
  state: State,
  value: Type.Record(Type.String(), Type.String()),
  evidence: Type.Record(Type.String(), Evidences, { description: 'Quotes per key of value.' }),
});
const Failure = Type.Object({ reason: Type.String(), detail: Type.String() });

const Draft = Type.Object({
  id: Type.String({ format: 'uuid' }),
  url: Type.String({ description: 'The submitted website, normalised.' }),
  domain: Type.String(),
  status: Type.Union([Type.Literal('crawling'), Type.Literal('drafting'), Type.Literal('ready'), Type.Literal('failed')], {
    description: 'crawling, drafting, ready; failed (ours) when the site cannot be read or drafted, with the reason in failure.',
  }),
  failure: Nullable(Type.Object({
    reason: Type.String({ description: 'robots_disallowed, robots_unavailable, unreachable, refused_address, not_html, too_large, http_error, off_site, drafting_failed, timed_out.' }),
    detail: Type.String(),
  })),
  fields: Type.Object(Object.fromEntries([...DRAFT_TEXT_FIELDS, ...DRAFT_LIST_FIELDS].map((f) => [f, FieldOut]))),
  faqs: Type.Object({ state: State, value: Type.Array(Type.Object({ question: Type.String(), answer: Type.String(), evidence: Evidences })) }),
  founders: Type.Object({
    state: State,
    value: Type.Array(Type.Object({
      name: Type.String(), title: Nullable(Type.String()), bio: Nullable(Type.String()), evidence: Evidences,
      invited: Type.Boolean({ description: 'Added by the co-founder through an invite link.' }),
    })),
  }),
  company_socials: MapSection,
  founder_socials: MapSection,
  story: MapSection,
  milestones: Type.Object({
    state: State,
    value: Type.Array(Type.Object({
      date: Type.String({ format: 'date' }), title: Type.String(), description: Nullable(Type.String()), url: Nullable(Type.String()), evidence: Evidences,
    })),
  }),
  seo: Type.Object({ title: Nullable(Type.String()), meta: Nullable(Type.String()) }),
  competitor_url: Nullable(Type.String()),
  comparison: Nullable(Type.Object({
    status: Type.Union([Type.Literal('crawling'), Type.Literal('comparing'), Type.Literal('ready'), Type.Literal('failed')]),
    competitor: Type.Object({ url: Type.String(), name: Nullable(Type.String()) }),
    points: Type.Array(Type.Object({
      topic: Type.String(), product: Nullable(Type.String()), competitor: Nullable(Type.String()),
      evidence: Type.Array(Evidence, { description: 'Quotes from either site; each value is backed by quotes from its own site.' }),
    })),
    failure: Nullable(Failure),
  })),
  regenerating: Type.Array(Type.String(), { description: 'Parts an AI redraft is working on.' }),
  regenerate_error: Nullable(Type.String({ description: 'Why the last redraft failed, if it did.' })),
  completeness: Type.Integer({ minimum: 0, maximum: 100, description: 'Percent of the profile fields, FAQs, founders and company socials holding a value.' }),
  missing: Type.Array(Type.String(), { description: 'Those of them without a value.' }),
  crawl: Type.Object({
    pages: Type.Array(Type.Object({ url: Type.String(), title: Nullable(Type.String()) }), { description: 'The pages read (the evidence comes from these).' }),
    skipped: Type.Array(Type.Object({ url: Type.String(), reason: Type.String() }), { description: 'Links not read and why (robots_disallowed, off_site, page_cap, ...).' }),
  }),
  invites: Type.Array(Type.Object({
    id: Type.Integer(), email: Type.String(), status: Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('expired')]),
    created_at: Iso, expires_at: Iso,
  })),
  listing_id: Nullable(Type.Integer({ minimum: 1, description: 'The listing submit_draft made.' })),
  submitted_at: Nullable(Iso),
  drafted_at: Nullable(Iso),
  created_at: Iso,
  updated_at: Iso,
});

const DraftSummary = Type.Object({
  id: Type.String({ format: 'uuid' }), url: Type.String(), domain: Type.String(), name: Nullable(Type.String()),
  status: Type.String(), completeness: Type.Integer({ minimum: 0, maximum: 100 }),
  listing_id: Nullable(Type.Integer()), created_at: Iso, updated_at: Iso,
});

const SubmittedListing = Type.Object({
  listing_id: Type.Integer({ minimum: 1 }),
  draft_id: Type.String({ format: 'uuid' }),
  created: Type.Boolean({ description: 'true when this call made the listing; false when it updated the one made before.' }),
  slug: Type.String(), name: Type.String(), url: Type.String(),
  status: Type.String({ description: 'draft until published (choose_free_listing or a paid launch).' }),
  plan: Type.String(),
  categories: Type.Array(Type.String(), { description: 'Category names, the primary first.' }),
  not_found_on_website: Type.Array(Type.String()),
  adjusted: Type.Array(Type.Object({ field: Type.String(), note: Type.String() }), {
    description: 'Draft values the listing\'s own rules made the service cut or leave out.',
  }),
  submitted_at: Iso,
});

const Invite = Type.Object({
  id: Type.Integer(), draft_id: Type.String({ format: 'uuid' }), email: Type.String(),
  status: Type.Literal('pending'), created_at: Iso, expires_at: Iso,
});

// ---- helpers -------------------------------------------------------------------------------

const who = (ctx: OperationContext) => ({ userId: (ctx.principal as Principal).userId, siteId: ctx.site.id });
const missingDraft = (id: string) => notFound(`No draft ${id} of yours.`);
const conflict = (message: string) => new DomainError('conflict', message);

async function view(sql: Sql, id: string) {
  const row = await draftById(sql, id);
  if (!row) throw missingDraft(id);
  return loadDraftView(sql, row);
}

/** Category names as list_categories spells them; unknown names are a 400 naming each. */
async function canonicalCategories(sql: Sql, names: string[]): Promise<string[]> {
  const wanted = names.map((n) => n.trim()).filter((n) => n !== '');
  if (wanted.length === 0) return [];
  const rows = await sql<{ lname: string; name: string }[]>`
    select distinct on (lower(name)) lower(name) as lname, name from categories
    where lower(name) = any(${wanted.map((n) => n.toLowerCase())}::text[])
    order by lower(name), (parent_id is not null), position, id`;
  const byName = new Map(rows.map((r) => [r.lname, r.name]));
  const issues: FieldIssue[] = [];
  wanted.forEach((n, i) => { if (!byName.has(n.toLowerCase())) issues.push({ field: `fields.categories.${i}`, message: `"${n}" is not a category name from list_categories` }); });
  if (issues.length) throw invalid(`Invalid input: ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}`, issues);
  return [...new Set(wanted.map((n) => byName.get(n.toLowerCase())!))];
}

type UpdateInput = {
  id: string; fields?: Record<string, string | string[] | null>; lock_fields?: DraftPart[]; regenerate?: DraftPart[]; restore?: DraftPart[];
  faqs?: { question: string; answer: string }[]; company_socials?: Record<string, string>; founder_socials?: Record<string, string>;
  founders?: { name: string; title?: string | null; bio?: string | null }[]; story?: Record<string, string>;
  milestones?: { date: string; title: string; description?: string | null; url?: string | null }[];
  competitor_url?: string; seo?: { title?: string; meta?: string };
};

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A section as typed by the user; evidence is kept for entries the user sent back unchanged. */
function sectionFromInput(section: DraftSection, input: UpdateInput, content: DraftContent): SectionValues[DraftSection] {
  const trim = (s: string | null | undefined) => (typeof s === 'string' && s.trim() !== '' ? s.trim() : null);
  switch (section) {
    case 'faqs': {
      const before = content.faqs.value;
      return input.faqs!.map((f) => {
        const item = { question: f.question.trim(), answer: f.answer.trim() };
        const same = before.find((b) => b.question === item.question && b.answer === item.answer);
        return { ...item, evidence: same?.evidence ?? [] };
      });
    }
    case 'founders': {
      const before = content.founders.value;
      return input.founders!.map((f) => {
        const item = { name: f.name.trim(), title: trim(f.title), bio: trim(f.bio) };
        const same = before.find((b) => b.name.toLowerCase() === item.name.toLowerCase());
        const unchanged = same && same.title === item.title && same.bio === item.bio;
        return {
          ...item, evidence: unchanged ? same.evidence : [],
          ...(same?.invite_id !== undefined ? { invite_id: same.invite_id, user_id: same.user_id ?? null } : {}),
        };
      });
    }
    case 'milestones': {
      const before = content.milestones.value;
      return input.milestones!.map((m) => {
        const item = { date: m.date, title: m.title.trim(), description: trim(m.description), url: trim(m.url) };
        const same = before.find((b) => sameJson({ ...b, evidence: undefined }, { ...item, evidence: undefined }));
        return { ...item, evidence: same?.evidence ?? [] };
      });
    }
    default: {
      const sent = input[section as 'story']!;
      const before = content[section as 'story'].value as Record<string, { value: string; evidence: unknown[] } | undefined>;
      return Object.fromEntries(Object.entries(sent).filter(([, v]) => v.trim() !== '').map(([k, v]) => {
        const value = v.trim();
        return [k, { value, evidence: before[k]?.value === value ? before[k]!.evidence : [] }];
      })) as SectionValues[DraftSection];
    }
  }
}

/** Names sent twice in ways that contradict each other (regenerate or restore with anything else). */
function contradictions(input: UpdateInput): FieldIssue[] {
  const typed = new Set<string>([...Object.keys(input.fields ?? {}), ...DRAFT_SECTIONS.filter((s) => input[s] !== undefined)]);
  const issues: FieldIssue[] = [];
  const regenerate = new Set(input.regenerate ?? []);
  const restore = new Set(input.restore ?? []);
  const lock = new Set(input.lock_fields ?? []);
  for (const name of regenerate) {
    if (typed.has(name) || restore.has(name) || lock.has(name)) issues.push({ field: 'regenerate', message: `"${name}" is also typed, restored or locked in this call` });
  }
  for (const name of restore) {
    if (typed.has(name) || lock.has(name)) issues.push({ field: 'restore', message: `"${name}" is also typed or locked in this call` });
  }
  return issues;
}

async function updateDraft(input: UpdateInput, ctx: OperationContext) {
  const { sql, config } = ctx;
  const clash = contradictions(input);
  if (clash.length) throw invalid(`Invalid input: ${clash.map((i) => `${i.field} ${i.message}`).join('; ')}`, clash);
  const fields = { ...(input.fields ?? {}) } as Record<DraftFieldName, string | string[] | null>;
  if (Array.isArray(fields.categories)) fields.categories = await canonicalCategories(sql, fields.categories);
  const competitor = input.competitor_url === undefined || input.competitor_url.trim() === ''
    ? input.competitor_url === undefined ? undefined : null
    : normaliseSubmittedUrl(input.competitor_url, 'competitor_url', { allowLoopback: config.allowLoopbackFetch });

  await sql.begin(async (tx) => {
    const t = tx as unknown as Sql;
    const row = await findDraft(t, input.id, who(ctx), { forUpdate: true });
    if (!row) throw missingDraft(input.id);
    const content = contentOf(row);
    const inProgress = row.status === 'crawling' || row.status === 'drafting';
    if (inProgress && (input.regenerate?.length || input.restore?.length)) {
      throw conflict(`The draft is still ${row.status}: regenerate and restore work once it is ready (poll get_draft).`);
    }
    for (const name of input.restore ?? []) {
      if (!aiDrafted(content, name)) throw conflict(`The AI has not drafted "${name}" for this draft, so there is nothing to restore.`);
    }
    if (input.regenerate?.length && row.status !== 'ready') {
      throw conflict('This draft\'s site could not be read (status failed), so there is nothing to redraft from.');
    }
    for (const name of input.regenerate ?? []) {
      if (stateOf(content, name) === 'override') throw conflict(`"${name}" is locked against AI redrafts (override); restore it or type a value first.`);
    }

    const touched = new Set<string>();
    let regenerating = row.regenerating.slice();
    const userTakes = (name: string) => { regenerating = regenerating.filter((r) => r !== name); };
    for (const [name, value] of Object.entries(fields) as [DraftFieldName, string | string[] | null][]) {
      setField(content, name, value);
      touched.add(name); userTakes(name);
    }
    for (const section of DRAFT_SECTIONS) {
      if (input[section] === undefined) continue;
      setSection(content, section, sectionFromInput(section, input, content));
      touched.add(section); userTakes(section);
    }
    for (const name of new Set(input.restore ?? [])) { restorePart(content, name); touched.add(name); userTakes(name); }
    for (const name of new Set(input.lock_fields ?? [])) { lockPart(content, name); userTakes(name); }
    const regenerate = [...new Set(input.regenerate ?? [])];
    for (const name of regenerate) if (!regenerating.includes(name)) regenerating.push(name);
    await writeContent(t, row.id, content, { regenerating });
    if (regenerate.length) {
      await t`update drafts set regenerate_error = null where id = ${row.id}`;
      await t`select graphile_worker.add_job('regenerate_draft', json_build_object('draft_id', ${row.id}::text, 'v', 1),
              max_attempts => 3, job_key => ${'regenerate_draft:' + row.id})`;
    }
    if (input.seo !== undefined) {
      const seo = { title: input.seo.title?.trim() || null, meta: input.seo.meta?.trim() || null };
      await t`update drafts set seo = ${t.json(seo as never)}::jsonb where id = ${row.id}`;
      row.seo = seo;
      touched.add('seo');
    }
    if (competitor === null) {
      await t`update drafts set competitor_url = null, comparison = null where id = ${row.id}`;
      await t`delete from draft_pages where draft_id = ${row.id} and kind = 'competitor'`;
    } else if (competitor !== undefined && (competitor.url !== row.competitor_url || row.comparison?.status === 'failed')) {
      const comparison = { status: 'crawling', url: competitor.url, name: null, points: [], failure_reason: null, failure_detail: null };
      await t`update drafts set competitor_url = ${competitor.url}, comparison = ${t.json(comparison as never)}::jsonb where id = ${row.id}`;
      await t`delete from draft_pages where draft_id = ${row.id} and kind = 'competitor'`;
      await t`select graphile_worker.add_job('crawl_competitor', json_build_object('draft_id', ${row.id}::text, 'url', ${competitor.url}::text, 'v', 1),
              max_attempts => 3, job_key => ${'crawl_competitor:' + row.id})`;
    }
    // Once submitted, the listing follows the draft (spec section 3), in this same transaction.
    if (row.listing_id !== null && touched.size > 0) {
      const { listingId } = await syncListing(t, row, content, syncScopeOf(touched));
      if (listingId !== row.listing_id) await t`update drafts set listing_id = ${listingId} where id = ${row.id}`;
    }
  });
  return view(sql, input.id);
}

async function submitDraft(id: string, ctx: OperationContext) {
  const { sql } = ctx;
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql;
    const row = await findDraft(t, id, who(ctx), { forUpdate: true });
    if (!row) throw missingDraft(id);
    if (row.status === 'crawling' || row.status === 'drafting') {
      throw conflict(`The draft is still ${row.status}; submit it once it is ready (poll get_draft).`);
    }
    const { listingId, created, adjusted } = await syncListing(t, row, contentOf(row), 'all');
    const [d] = await t<{ submitted_at: Date }[]>`
      update drafts set listing_id = ${listingId}, submitted_at = coalesce(submitted_at, now()), updated_at = now()
      where id = ${row.id} returning submitted_at`;
    const [l] = await t<{ slug: string; name: string; url: string; status: string; plan: string; not_found_on_website: string[]; categories: string[] }[]>`
      select l.slug, l.name, l.url, l.status, l.plan, l.not_found_on_website,
             coalesce(array(select c.name from listing_categories lc join categories c on c.id = lc.category_id
                            where lc.listing_id = l.id order by lc.is_primary desc, c.name), '{}') as categories
      from listings l where l.id = ${listingId}`;
    return { listing_id: listingId, draft_id: row.id, created, ...l, adjusted, submitted_at: d.submitted_at.toISOString() };
  });
}

async function inviteCofounder(id: string, email: string, ctx: OperationContext) {
  const { sql, config, site } = ctx;
  const principal = ctx.principal as Principal;
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql;
    const row: DraftRow | null = await findDraft(t, id, who(ctx), { forUpdate: true });
    if (!row) throw missingDraft(id);
    const invite = await createInvite(t, { draftId: row.id, email: email.trim(), invitedBy: principal.userId });
    const product = (contentOf(row).fields.name?.value as string | null) ?? row.domain;
    const link = `${config.siteUrl}/invites/${invite.token}`;
    await enqueueMail(t, {
      to: invite.email,
      kind: 'cofounder_invite',
      subject: `Add your founder profile to ${product} on ${site.name}`,
      text: [
        `${principal.email} is listing ${product} (${row.domain}) on ${site.name} and invited you as a co-founder.`,
        '',
        `Add your own founder profile (name, role and a short bio) here: ${link}`,
        '',
        `The link works once and expires in ${INVITE_TTL_DAYS} days. If you don't know this product, ignore this e-mail.`,
      ].join('\n'),
    });
    return {
      id: invite.id, draft_id: row.id, email: invite.email, status: 'pending' as const,
      created_at: invite.created_at.toISOString(), expires_at: invite.expires_at.toISOString(),
    };
  });
}

// ---- operations ----------------------------------------------------------------------------

const NOT_YOURS = '404 when the id is not a UUID, unknown, or another account\'s draft (drafts are private to their owner).';

export const draftsOperations: Operation[] = [
  defineOperation({
    name: 'submit_listing', method: 'POST', path: '/drafts', tag: 'Drafts', scope: 'listings:write', status: 201, idempotent: true,
    summary: 'Submit a product by its website URL',
    description: 'Creates a draft from a public website: the service reads the site (respecting robots.txt) and an AI drafts the profile, every value with quotes from the site; facts the site does not state stay blank. Nothing is published or charged. Poll get_draft every few seconds until status is ready.',
    body: Type.Object({
      url: Type.String({ minLength: 1, maxLength: URL_MAX, description: 'The product\'s public website (http or https). A bare domain means its https site.' }),
    }, { additionalProperties: false }),
    output: Draft,
    notes: notes(
      'The URL is normalised (scheme and host lower case, fragment removed; a bare domain gets https://). 400 when it is not http(s), carries a user name or password, names an IP address that is not public (private, loopback, link-local, ...) or a private name (localhost, *.local, *.internal, ...). Names are resolved and checked again, address by address and redirect by redirect, when the site is read; a site that turns out not to be public ends the draft as failed with reason refused_address.',
      'The draft is written and its crawl enqueued in one transaction; the answer (201) is the draft with status crawling. Status then goes crawling -> drafting -> ready, usually within seconds. failed (our addition to the spec\'s list) ends a draft whose site cannot be read or drafted, with failure.reason (robots_disallowed, robots_unavailable, unreachable, refused_address, not_html, too_large, http_error, off_site, drafting_failed, timed_out) and a detail; submit the URL again once the cause is fixed.',
      'The crawl reads robots.txt first and obeys it for our user agent (including Crawl-delay), stays on the submitted site, reads at most 25 pages (home, about, pricing, FAQ, contact, team and blog first) within 30 seconds.',
    ),
    handler: async ({ url }, ctx) => {
      const { url: normal, domain } = normaliseSubmittedUrl(url, 'url', { allowLoopback: ctx.config.allowLoopbackFetch });
      const id = await ctx.sql.begin((tx) => insertDraft(tx as unknown as Sql, { siteId: ctx.site.id, userId: who(ctx).userId, url: normal, domain }));
      return view(ctx.sql, id);
    },
  }),

  defineOperation({
    name: 'list_my_drafts', method: 'GET', path: '/drafts', tag: 'Drafts', scope: 'account:read',
    summary: 'List your drafts',
    description: 'Your drafts on this site, newest first, with status and completeness.',
    query: Type.Object({ ...Paging }, { additionalProperties: false }),
    output: ListOf(DraftSummary),
    notes: 'Newest first (created_at, then id). name is the draft\'s name field (null until drafted or when the site does not state it). status includes failed (see submit_listing).',
    handler: async ({ page, per_page }, ctx) => {
      const { items, total } = await listDrafts(ctx.sql, who(ctx), page, per_page);
      return {
        items: items.map((d) => ({ ...d, created_at: d.created_at.toISOString(), updated_at: d.updated_at.toISOString() })),
        ...pageInfo(page, per_page, total),
      };
    },
  }),

  defineOperation({
    name: 'get_draft', method: 'GET', path: '/drafts/{id}', tag: 'Drafts', scope: 'account:read',
    summary: 'Get a draft',
    description: 'A draft with every profile field (value, state and evidence quotes), FAQs, founders, socials, story, milestones, SEO, the competitor comparison, completeness and what is still missing.',
    params: IdPath,
    notFoundParams: ['id'],
    output: Draft,
    notes: notes(
      NOT_YOURS,
      'Poll every few seconds while status is crawling or drafting. Field and section state is null until the AI has drafted it.',
      'Each part\'s value has the shape its update_draft key takes: fields.<name>.value is a string or a list of strings; faqs, founders and milestones values are lists whose items carry their own evidence; company_socials, founder_socials and story values are maps with an evidence map beside them. Evidence quotes are words found exactly (after normalising whitespace, case and entities) in the visible text of the crawled page named by url; text in scripts, styles, comments and hidden elements is never evidence.',
      'completeness is the whole percent (rounded) of 21 parts holding a value: the 18 profile fields plus at least one FAQ, one founder and one company social link; missing names the others in that order. The story, milestones and founder socials are optional (paid) sections and do not count.',
      'crawl lists the pages read and the links left out with the reason. failure is set when status is failed. listing_id is set once submit_draft has made the listing.',
    ),
    handler: async ({ id }, ctx) => {
      const row = await findDraft(ctx.sql, id, who(ctx));
      if (!row) throw missingDraft(id);
      return loadDraftView(ctx.sql, row);
    },
  }),

  defineOperation({
    name: 'update_draft', method: 'PATCH', path: '/drafts/{id}', tag: 'Drafts', scope: 'listings:write', idempotent: true,
    summary: 'Edit a draft',
    description: 'Changes what is sent and nothing else: profile fields, locks, AI redrafts (regenerate), restores of the AI\'s values, FAQs, socials, founders, story, milestones, competitor URL and SEO. Returns the updated draft. Once the draft was submitted, the listing is updated too.',
    params: IdPath,
    notFoundParams: ['id'],
    body: UpdateBody,
    output: Draft,
    notes: notes(
      NOT_YOURS,
      'Field states (spec section 3): a typed value makes the field edited (the AI had a value) or manual (it had none); null, a blank string or an empty list deletes it (deleted). lock_fields makes it override: it keeps its value and AI redrafts leave it alone. restore brings back the AI\'s latest value and evidence (state ai, or not_found when the site did not state it). Sections (faqs, founders, company_socials, founder_socials, story, milestones) follow the same rules as one unit, and lock_fields, regenerate and restore accept their names too.',
      'Sections replace the whole section: faqs (max 10 items; the spec\'s description mentions 5, its bound says 10: 10 is enforced), founders (max 6, the first is primary), milestones (max 50), company_socials and founder_socials (platforms left out or empty are removed), story (sections left out or empty are removed). An empty list or map deletes the section. seo replaces both title and meta.',
      'regenerate (max 5 names) redrafts those parts from the stored crawl in a background job: they are listed in regenerating until the job writes them (a few seconds; poll get_draft). The status stays ready meanwhile. Editing, locking or restoring a part while it is regenerating takes it off the list (the user\'s change wins). regenerate_error tells why the last redraft failed, if it did.',
      'While the draft is crawling or drafting, user values may be set (fields, sections, locks, seo, competitor_url): the AI draft then skips the parts the user set. regenerate and restore need the AI draft: 409 while crawling or drafting, and regenerate also 409 on a failed draft. restore of a part the AI never drafted is 409. regenerate of a part in state override is 409 (restore it or type a value first).',
      'A name may not be in regenerate and also typed, restored or locked in the same call, nor in restore and also typed or locked (400). A value may be typed and locked in one call.',
      'categories must be names from list_categories (matched case-insensitively, returned as list_categories spells them; duplicates are dropped); an unknown name is 400 naming it. competitor_url follows submit_listing\'s URL rules; the competitor\'s site is read the same way and comparison gains points backed by quotes from both sites (status crawling -> comparing -> ready, or failed with a reason). Sending the current competitor_url again does nothing unless its comparison failed (then it is retried); an empty string clears it.',
      'After submit_draft, the listing is updated in the same transaction with the parts this call changed (the same mapping as submit_draft); the regenerate job does the same when it finishes.',
    ),
    handler: async (input, ctx) => updateDraft(input as unknown as UpdateInput, ctx),
  }),

  defineOperation({
    name: 'invite_cofounder', method: 'POST', path: '/drafts/{id}/invites', tag: 'Drafts', scope: 'listings:write', status: 201, idempotent: true,
    summary: 'Invite a co-founder to add their own profile',
    description: 'E-mails a co-founder a single-use link to add their own founder profile (name, role, bio) to the draft. Up to 10 invites per draft.',
    params: IdPath,
    notFoundParams: ['id'],
    body: Type.Object({ email: Type.String({ format: 'email', maxLength: 254 }) }, { additionalProperties: false }),
    output: Invite,
    notes: notes(
      NOT_YOURS,
      `At most ${INVITES_MAX} addresses per draft: inviting an 11th address is 409. Inviting an address again sends a fresh link (the earlier one stops working) and does not count twice; an address that has already accepted is 409.`,
      `The link (${'{site_url}'}/invites/{token}) works once and expires after ${INVITE_TTL_DAYS} days; the token is never returned by the API. The invitee adds themselves as a founder on that page (no account needed: the link is the proof); the founders section of the draft (and of the listing, once submitted) gains them, at most 6 founders.`,
    ),
    handler: async ({ id, email }, ctx) => inviteCofounder(id, email, ctx),
  }),

  defineOperation({
    name: 'submit_draft', method: 'POST', path: '/drafts/{id}/submit', tag: 'Drafts', scope: 'listings:write', idempotent: true,
    summary: 'Turn a draft into a listing',
    description: 'Saves the draft as a listing, not yet published (status draft). Running it again after edits updates the same listing. Publish it with choose_free_listing or a paid launch.',
    params: IdPath,
    notFoundParams: ['id'],
    output: SubmittedListing,
    notes: notes(
      NOT_YOURS,
      '409 while the draft is crawling or drafting. A failed draft may be submitted with the values the user typed.',
      'Mapping: the listing belongs to the caller, under the company of the draft\'s domain (made when new). Its slug comes from the name and stays the same on later runs. Profile fields go to the listing\'s fields where the listing\'s own bounds allow: tagline 200, short_description and pricing_summary 300, pricing_model 40 and city 120 characters are cut at a word; country must be a two-letter code and founded_year a year 1800..2100, stage becomes a slug, otherwise they are left out; tags stay on the draft (a listing has no tags). adjusted lists every such case. A draft without a name gives the listing its domain as name.',
      'categories: the first name is the primary category; a free listing keeps only that one (extra categories come with a paid plan), a paid one up to 3 more. FAQs, company socials, founders (the first is primary; founder_socials go to the primary founder), story and milestones replace the listing\'s. not_found_on_website lists the profile fields whose state is not_found. seo goes to the listing\'s SEO title and description.',
      'Nothing is published: a listing in status draft appears on no public page. If the listing was published since, public reads are refreshed at once.',
    ),
    handler: async ({ id }, ctx) => submitDraft(id, ctx),
  }),
];

