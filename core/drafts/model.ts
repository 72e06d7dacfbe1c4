// A draft's content as stored (drafts.fields and the section columns) and the field-state rules
// of spec section 3, shared by the edge (update_draft) and the worker (AI drafts and redrafts).
// Pure functions over plain objects: the callers read the row, apply, and write it back under a
// row lock.
import { DRAFT_FIELDS, isListField, type DraftFieldName, type Evidence, type FieldState, type SocialPlatform, type StorySection } from './fields.ts';

/** The parts of a draft besides the profile fields; each has one state, like a field. */
export const DRAFT_SECTIONS = ['faqs', 'founders', 'company_socials', 'founder_socials', 'story', 'milestones'] as const;
export type DraftSection = (typeof DRAFT_SECTIONS)[number];
/** What lock_fields, regenerate and restore accept: profile field names and section names. */
export type DraftPart = DraftFieldName | DraftSection;
export const DRAFT_PARTS: readonly DraftPart[] = [...DRAFT_FIELDS, ...DRAFT_SECTIONS];
export const isSection = (name: string): name is DraftSection => (DRAFT_SECTIONS as readonly string[]).includes(name);

export type FieldValue = string | string[] | null;
export interface AiValue<T> {
  value: T;
  evidence: Evidence[];
}
export interface FieldCell {
  value: FieldValue;
  state: FieldState;
  evidence: Evidence[];
  ai: AiValue<FieldValue> | null;
}

export interface FaqItem {
  question: string;
  answer: string;
  evidence: Evidence[];
}
export interface FounderItem {
  name: string;
  title: string | null;
  bio: string | null;
  evidence: Evidence[];
  /** Set when a co-founder added themselves through an invite link. */
  invite_id?: string;
  user_id?: string | null;
}
export interface MilestoneItem {
  date: string;
  title: string;
  description: string | null;
  url: string | null;
  evidence: Evidence[];
}
export interface Quoted {
  value: string;
  evidence: Evidence[];
}

export interface SectionValues {
  faqs: FaqItem[];
  founders: FounderItem[];
  company_socials: Partial<Record<SocialPlatform, Quoted>>;
  founder_socials: Partial<Record<SocialPlatform, Quoted>>;
  story: Partial<Record<StorySection, Quoted>>;
  milestones: MilestoneItem[];
}
/** state null: not drafted yet (the crawl or the AI is still at work). */
export interface SectionCell<K extends DraftSection> {
  state: FieldState | null;
  value: SectionValues[K];
  ai: { value: SectionValues[K] } | null;
}

export interface DraftContent {
  fields: Partial<Record<DraftFieldName, FieldCell>>;
  faqs: SectionCell<'faqs'>;
  founders: SectionCell<'founders'>;
  company_socials: SectionCell<'company_socials'>;
  founder_socials: SectionCell<'founder_socials'>;
  story: SectionCell<'story'>;
  milestones: SectionCell<'milestones'>;
}

/**
 * What a drafter proposes, after the evidence check (the same shape as the worker's
 * DraftProposal; declared here because sql/ never imports the pipeline).
 */
export interface AiProposal {
  fields: Partial<Record<DraftFieldName, AiValue<string | string[]>>>;
  faqs: AiValue<{ question: string; answer: string }>[];
  founders: AiValue<{ name: string; title: string | null; bio: string | null }>[];
  company_socials: Partial<Record<SocialPlatform, AiValue<string>>>;
  founder_socials: Partial<Record<SocialPlatform, AiValue<string>>>;
  story: Partial<Record<StorySection, AiValue<string>>>;
  milestones: AiValue<{ date: string; title: string; description: string | null; url: string | null }>[];
}

const emptyOf = (section: DraftSection): SectionValues[DraftSection] => (section === 'faqs' || section === 'founders' || section === 'milestones' ? [] : {});

export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/** The stored columns, with defaults for parts not drafted yet. */
export function readContent(row: { fields: unknown } & Record<DraftSection, unknown>): DraftContent {
  const section = <K extends DraftSection>(name: K): SectionCell<K> => {
    const raw = (row[name] ?? {}) as Partial<SectionCell<K>>;
    return { state: raw.state ?? null, value: (raw.value ?? emptyOf(name)) as SectionValues[K], ai: raw.ai ?? null };
  };
  return {
    fields: { ...((row.fields ?? {}) as DraftContent['fields']) },
    faqs: section('faqs'),
    founders: section('founders'),
    company_socials: section('company_socials'),
    founder_socials: section('founder_socials'),
    story: section('story'),
    milestones: section('milestones'),
  };
}

/** The current value of a part (a field's value or a section's value). */
export function partValue(content: DraftContent, part: DraftPart): unknown {
  return isSection(part) ? content[part].value : (content.fields[part]?.value ?? null);
}
export function stateOf(content: DraftContent, part: DraftPart): FieldState | null {
  return isSection(part) ? content[part].state : (content.fields[part]?.state ?? null);
}
/** Whether the AI has drafted this part at all (restore needs that). */
export const aiDrafted = (content: DraftContent, part: DraftPart): boolean =>
  isSection(part) ? content[part].ai !== null : (content.fields[part]?.ai ?? null) !== null;

/** AI drafts write a part only while it holds no value of the user's (spec section 3). */
const AI_WRITABLE = new Set<FieldState | null>([null, 'ai', 'not_found']);

// ---- AI proposals --------------------------------------------------------------------------

function sectionFromProposal<K extends DraftSection>(section: K, p: AiProposal): SectionValues[K] {
  const map = (m: Partial<Record<string, AiValue<string>>>) =>
    Object.fromEntries(
      Object.entries(m)
        .filter(([, v]) => v && !isEmptyValue(v.value))
        .map(([k, v]) => [k, { value: v!.value, evidence: v!.evidence }]),
    );
  switch (section) {
    case 'faqs':
      return p.faqs.map((f) => ({ question: f.value.question, answer: f.value.answer, evidence: f.evidence })) as SectionValues[K];
    case 'founders':
      return p.founders.map((f) => ({ name: f.value.name, title: f.value.title ?? null, bio: f.value.bio ?? null, evidence: f.evidence })) as SectionValues[K];
    case 'milestones':
      return p.milestones.map((m) => ({
        date: m.value.date,
        title: m.value.title,
        description: m.value.description ?? null,
        url: m.value.url ?? null,
        evidence: m.evidence,
      })) as SectionValues[K];
    default:
      return map(p[section as 'story']) as SectionValues[K];
  }
}

/**
 * Writes an AI proposal into the parts named. The AI's value is always recorded (restore brings
 * it back); the current value is replaced only for parts whose state is not the user's, or that
 * are in `force` (the user asked to regenerate them). Returns the parts whose value changed.
 */
export function applyAi(content: DraftContent, p: AiProposal, parts: readonly DraftPart[], force: ReadonlySet<DraftPart> = new Set()): DraftPart[] {
  const changed: DraftPart[] = [];
  for (const part of parts) {
    if (isSection(part)) {
      const cell = content[part] as SectionCell<DraftSection>;
      const value = sectionFromProposal(part, p);
      cell.ai = { value };
      if (force.has(part) || AI_WRITABLE.has(cell.state)) {
        cell.value = value;
        cell.state = isEmptyValue(value) ? 'not_found' : 'ai';
        changed.push(part);
      }
    } else {
      const proposed = p.fields[part];
      const value: FieldValue = proposed && !isEmptyValue(proposed.value) ? proposed.value : null;
      const evidence = value === null ? [] : proposed!.evidence;
      const cell = content.fields[part] ?? { value: null, state: 'not_found' as FieldState, evidence: [], ai: null };
      const writable = force.has(part) || AI_WRITABLE.has(content.fields[part]?.state ?? null);
      content.fields[part] = writable
        ? { value, state: value === null ? 'not_found' : 'ai', evidence, ai: { value, evidence } }
        : { ...cell, ai: { value, evidence } };
      if (writable) changed.push(part);
    }
  }
  return changed;
}

// ---- the user's changes (update_draft) -----------------------------------------------------

/** A typed value is the user's own: edited when the AI had proposed a value, manual when it had not. */
function ownState(aiValue: unknown): FieldState {
  return isEmptyValue(aiValue) ? 'manual' : 'edited';
}

/** update_draft `fields`: a value marks the field edited or manual; null (or blank) deletes it. */
export function setField(content: DraftContent, name: DraftFieldName, raw: string | string[] | null): void {
  const current = content.fields[name];
  const ai = current?.ai ?? null;
  let value: FieldValue = raw;
  if (typeof value === 'string') value = value.trim();
  if (Array.isArray(value)) value = value.map((v) => v.trim()).filter((v) => v !== '');
  if (isEmptyValue(value)) {
    content.fields[name] = { value: null, state: 'deleted', evidence: [], ai };
    return;
  }
  if (isListField(name) && !Array.isArray(value)) value = [value as string];
  content.fields[name] = { value, state: ownState(ai?.value), evidence: [], ai };
}

/** A section sent in update_draft replaces the whole section; an empty one deletes it. */
export function setSection<K extends DraftSection>(content: DraftContent, section: K, value: SectionValues[K]): void {
  const cell = content[section] as SectionCell<K>;
  cell.value = value;
  cell.state = isEmptyValue(value) ? 'deleted' : ownState(cell.ai?.value);
}

/** lock_fields: the part keeps its value and AI redrafts leave it alone. */
export function lockPart(content: DraftContent, part: DraftPart): void {
  if (isSection(part)) {
    content[part].state = 'override';
    return;
  }
  const cell = content.fields[part] ?? { value: null, state: 'override' as FieldState, evidence: [], ai: null };
  content.fields[part] = { ...cell, state: 'override' };
}

/** restore: the AI's value and evidence come back (state ai, or not_found when it had none). */
export function restorePart(content: DraftContent, part: DraftPart): void {
  if (isSection(part)) {
    const cell = content[part] as SectionCell<DraftSection>;
    const value = cell.ai?.value ?? emptyOf(part);
    cell.value = value;
    cell.state = isEmptyValue(value) ? 'not_found' : 'ai';
    return;
  }
  const ai = content.fields[part]?.ai ?? null;
  const value = ai?.value ?? null;
  content.fields[part] = { value, state: isEmptyValue(value) ? 'not_found' : 'ai', evidence: isEmptyValue(value) ? [] : ai!.evidence, ai };
}

/** Profile fields the site did not state (state not_found): the listing's not_found_on_website. */
export function notFoundFields(content: DraftContent): DraftFieldName[] {
  return DRAFT_FIELDS.filter((f) => content.fields[f]?.state === 'not_found');
}

/** The columns to write back. */
export function contentColumns(content: DraftContent): Record<'fields' | DraftSection, unknown> {
  return {
    fields: content.fields,
    faqs: content.faqs,
    founders: content.founders,
    company_socials: content.company_socials,
    founder_socials: content.founder_socials,
    story: content.story,
    milestones: content.milestones,
  };
}
