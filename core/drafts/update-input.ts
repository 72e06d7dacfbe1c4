// An update_draft request as the user sent it: its shape, the names it contradicts itself on,
// and the sections it types, with evidence kept for what was sent back unchanged.
import type { FieldIssue } from '../errors/index.ts';
import { DRAFT_SECTIONS, type DraftContent, type DraftPart, type DraftSection, type SectionValues } from './model.ts';

export interface DraftUpdate {
  id: string;
  fields?: Record<string, string | string[] | null>;
  lock_fields?: DraftPart[];
  regenerate?: DraftPart[];
  restore?: DraftPart[];
  faqs?: { question: string; answer: string }[];
  company_socials?: Record<string, string>;
  founder_socials?: Record<string, string>;
  founders?: { name: string; title?: string | null; bio?: string | null }[];
  story?: Record<string, string>;
  milestones?: { date: string; title: string; description?: string | null; url?: string | null }[];
  competitor_url?: string;
  seo?: { title?: string; meta?: string };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A section as typed by the user; evidence is kept for entries the user sent back unchanged. */
export function sectionFromInput(section: DraftSection, input: DraftUpdate, content: DraftContent): SectionValues[DraftSection] {
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
          ...item,
          evidence: unchanged ? same.evidence : [],
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
      return Object.fromEntries(
        Object.entries(sent)
          .filter(([, v]) => v.trim() !== '')
          .map(([k, v]) => {
            const value = v.trim();
            return [k, { value, evidence: before[k]?.value === value ? before[k]!.evidence : [] }];
          }),
      ) as SectionValues[DraftSection];
    }
  }
}

/** Names sent twice in ways that contradict each other (regenerate or restore with anything else). */
export function contradictions(input: DraftUpdate): FieldIssue[] {
  const typed = new Set<string>([...Object.keys(input.fields ?? {}), ...DRAFT_SECTIONS.filter((s) => input[s] !== undefined)]);
  const issues: FieldIssue[] = [];
  const regenerate = new Set(input.regenerate ?? []);
  const restore = new Set(input.restore ?? []);
  const lock = new Set(input.lock_fields ?? []);
  for (const name of regenerate) {
    if (typed.has(name) || restore.has(name) || lock.has(name))
      issues.push({ field: 'regenerate', message: `"${name}" is also typed, restored or locked in this call` });
  }
  for (const name of restore) {
    if (typed.has(name) || lock.has(name)) issues.push({ field: 'restore', message: `"${name}" is also typed or locked in this call` });
  }
  return issues;
}
