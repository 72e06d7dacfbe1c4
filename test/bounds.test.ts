import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TSchema } from '@sinclair/typebox';
import { freshDatabase } from './db.ts';
import * as B from '../core/drafts/bounds.ts';
import { DRAFT_LIST_FIELDS, DRAFT_TEXT_FIELDS, SOCIAL_PLATFORMS, STORY_SECTIONS } from '../core/drafts/fields.ts';
import { URL_MAX } from '../core/drafts/submitted-url.ts';
import { InviteBody, UpdateBody } from '../api/operations/drafts-schemas.ts';
import { Faq } from '../api/registry/schemas.ts';
import { AI_TEXT_MAX } from '../pipeline/drafting/bounds.ts';

// One source per bound: core/drafts/bounds.ts. The edge's schemas, the drafters and the database's
// CHECK constraints must all say what it says.

type S = TSchema & { properties?: Record<string, S>; items?: S; anyOf?: S[]; maxLength?: number; maxItems?: number };
/** The schema itself, or its non-null branch when it is Nullable(...). */
const bare = (s: S): S => s.anyOf?.find((b) => b.type !== 'null') ?? s;
const prop = (s: S, ...path: string[]): S => path.reduce((at, key) => bare(bare(at).properties![key]), s);

describe('the edge schemas take their bounds from core/drafts/bounds.ts', () => {
  const body = UpdateBody as S;
  test('profile fields', () => {
    for (const f of DRAFT_TEXT_FIELDS) expect([f, prop(body, 'fields', f).maxLength]).toEqual([f, B.TEXT_MAX[f]]);
    for (const f of DRAFT_LIST_FIELDS) {
      expect([f, prop(body, 'fields', f).maxItems]).toEqual([f, B.LIST_MAX_ITEMS]);
      expect([f, prop(body, 'fields', f).items!.maxLength]).toEqual([f, B.LIST_ITEM_MAX]);
    }
  });
  test('sections and the other update_draft keys', () => {
    expect(prop(body, 'faqs').maxItems).toBe(B.FAQ_MAX);
    expect(bare(prop(body, 'faqs').items!).properties!.question.maxLength).toBe(B.FAQ_QUESTION_MAX);
    expect(bare(prop(body, 'faqs').items!).properties!.answer.maxLength).toBe(B.FAQ_ANSWER_MAX);
    expect((Faq as S).properties!.question.maxLength).toBe(B.FAQ_QUESTION_MAX);
    expect((Faq as S).properties!.answer.maxLength).toBe(B.FAQ_ANSWER_MAX);
    expect(prop(body, 'founders').maxItems).toBe(B.FOUNDERS_MAX);
    const founder = bare(prop(body, 'founders').items!);
    expect(prop(founder, 'name').maxLength).toBe(B.FOUNDER_NAME_MAX);
    expect(prop(founder, 'title').maxLength).toBe(B.FOUNDER_TITLE_MAX);
    expect(prop(founder, 'bio').maxLength).toBe(B.FOUNDER_BIO_MAX);
    for (const socials of ['company_socials', 'founder_socials']) {
      for (const p of SOCIAL_PLATFORMS) expect(prop(body, socials, p).maxLength).toBe(B.SOCIAL_URL_MAX);
    }
    for (const s of STORY_SECTIONS) expect(prop(body, 'story', s).maxLength).toBe(B.STORY_SECTION_MAX);
    expect(prop(body, 'milestones').maxItems).toBe(B.MILESTONES_MAX);
    const milestone = bare(prop(body, 'milestones').items!);
    expect(prop(milestone, 'title').maxLength).toBe(B.MILESTONE_TITLE_MAX);
    expect(prop(milestone, 'description').maxLength).toBe(B.MILESTONE_DESCRIPTION_MAX);
    expect(prop(milestone, 'url').maxLength).toBe(B.MILESTONE_URL_MAX);
    expect(prop(body, 'seo', 'title').maxLength).toBe(B.SEO_TITLE_MAX);
    expect(prop(body, 'seo', 'meta').maxLength).toBe(B.SEO_META_MAX);
    expect(prop(body, 'lock_fields').maxItems).toBe(B.LOCK_FIELDS_MAX);
    expect(prop(body, 'regenerate').maxItems).toBe(B.REGENERATE_MAX);
    expect(prop(body, 'restore').maxItems).toBe(B.RESTORE_MAX);
    expect(prop(body, 'competitor_url').maxLength).toBe(URL_MAX);
    expect(prop(InviteBody as S, 'email').maxLength).toBe(B.EMAIL_MAX);
  });
});

test('an AI value fits both the draft and the listing it becomes', () => {
  for (const f of DRAFT_TEXT_FIELDS) {
    expect(AI_TEXT_MAX[f]).toBeLessThanOrEqual(B.TEXT_MAX[f]);
    const listing = (B.LISTING_TEXT_MAX as Partial<Record<string, number>>)[f];
    if (listing !== undefined) expect([f, AI_TEXT_MAX[f]]).toEqual([f, Math.min(B.TEXT_MAX[f], listing)]);
  }
});

describe('the database checks the same bounds', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  /** "table.column" -> the largest length (or cardinality) its CHECK constraints allow. */
  const maxOf = new Map<string, number>();
  const checks = new Map<string, string[]>();
  beforeAll(async () => {
    db = await freshDatabase();
    const rows = await db.sql<{ tbl: string; def: string }[]>`
      select c.conrelid::regclass::text as tbl, pg_get_constraintdef(c.oid) as def
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where c.contype = 'c' and n.nspname = 'public'`;
    for (const { tbl, def } of rows) {
      for (const m of def.matchAll(/(?:length|cardinality)\((\w+)\) <= (\d+)/g)) maxOf.set(`${tbl}.${m[1]}`, Number(m[2]));
      checks.set(tbl, [...(checks.get(tbl) ?? []), def]);
    }
  });
  afterAll(() => db.drop());
  const expectMax = (column: string, bound: number) => expect([column, maxOf.get(column)]).toEqual([column, bound]);

  test('listings and companies', () => {
    for (const [f, n] of Object.entries(B.LISTING_TEXT_MAX)) expectMax(`listings.${f}`, n);
    expectMax('companies.name', B.LISTING_TEXT_MAX.name);
    for (const f of ['features', 'usps', 'keywords']) expectMax(`listings.${f}`, B.LIST_MAX_ITEMS);
    expect(checks.get('listings')).toContainEqual(`CHECK (((founded_year >= ${B.YEAR_MIN}) AND (founded_year <= ${B.YEAR_MAX})))`);
  });

  test('FAQs, founders, socials, story and milestones', () => {
    expectMax('listing_faqs.question', B.FAQ_QUESTION_MAX);
    expectMax('listing_faqs.answer', B.FAQ_ANSWER_MAX);
    expectMax('founders.name', B.FOUNDER_NAME_MAX);
    expectMax('founders.title', B.FOUNDER_TITLE_MAX);
    expectMax('founders.bio', B.FOUNDER_BIO_MAX);
    expectMax('listing_founders.role', B.FOUNDER_TITLE_MAX);
    expectMax('listing_socials.url', B.SOCIAL_URL_MAX);
    expectMax('founder_stories.title', B.STORY_TITLE_MAX);
    for (const s of STORY_SECTIONS.filter((s) => s !== 'title')) expectMax(`founder_stories.${s}`, B.STORY_SECTION_MAX);
    expectMax('milestones.title', B.MILESTONE_TITLE_MAX);
    expectMax('milestones.description', B.MILESTONE_DESCRIPTION_MAX);
    expectMax('milestones.url', B.MILESTONE_URL_MAX);
  });

  test('drafts and invites', () => {
    expectMax('drafts.url', URL_MAX);
    expectMax('drafts.competitor_url', URL_MAX);
    expectMax('draft_invites.email', B.EMAIL_MAX);
    expectMax('users.email', B.EMAIL_MAX);
  });
});
