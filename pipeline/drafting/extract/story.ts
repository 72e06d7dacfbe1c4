// The founder story from sections whose headings name them ("Our story", "Why we started",
// "What's next"), and milestones from a timeline section: lines that start with a date
// ("2019 – Founded in Berlin", "March 2021: Launched v1"), or a date line followed by its text.
import type { Evidence, StorySection } from '../../../core/drafts/fields.ts';
import type { DraftProposal, Proposed } from '../types.ts';
import { MILESTONE_TITLE_MAX, MILESTONES_MAX, STORY_SECTION_MAX } from '../../../core/drafts/bounds.ts';
import { isoDate, statedDates } from '../field-rules.ts';
import { truncateWords } from '../normalise.ts';
import { wordCount, type Sources } from './sources.ts';

const SECTIONS: [Exclude<StorySection, 'title'>, RegExp][] = [
  ['why_started', /\bwhy we (?:started|built|founded|exist)|\bwhy .{1,30} exists\b/i],
  ['problem', /\bthe problem\b|\bproblem we solve|\bwhat problem\b/i],
  ['challenges', /\bchallenges?\b/i],
  ['achievements', /\bachievements?\b|\brecognition\b|\bawards?\b/i],
  ['lessons', /\blessons\b|\bwhat we(?:['’]ve| have)? learn/i],
  ['whats_next', /\bwhat['’]?s next\b|\broadmap\b|\bthe future\b|\blooking ahead\b/i],
  ['journey', /\bour journey\b|\bthe journey\b/i],
  ['story', /\bour story\b|\bthe story\b|\bhow (?:it|we|this) (?:all )?(?:began|started)\b/i],
];

export function extractStory(src: Sources): DraftProposal['story'] {
  const story: DraftProposal['story'] = {};
  const pages = src.ordered('about', 'team', 'home').filter((m) => src.kind(m) !== 'blog');
  for (const [section, pattern] of SECTIONS) {
    for (const { model, el, text } of src.headings(pattern, pages)) {
      const paragraphs = src
        .sectionLines(model, el)
        .filter((l) => wordCount(l.quote) >= 4)
        .slice(0, 10);
      if (paragraphs.length === 0) continue;
      story[section] = {
        value: truncateWords(paragraphs.map((p) => p.quote).join('\n\n'), STORY_SECTION_MAX),
        evidence: paragraphs,
      };
      if (section === 'story' && story.title === undefined && text.length <= 200) {
        story.title = { value: text, evidence: [{ quote: text, url: model.page.url }] };
      }
      break;
    }
  }
  return story;
}

const TIMELINE = /\bmilestones?\b|\btimeline\b|\bhistory\b|\bour journey\b|\bhow we got here\b/i;
const DATE_AT_START =
  /^((?:\d{4}-\d{2}-\d{2})|(?:[A-Za-z]{3,9}\.?\s+\d{1,2},?\s+\d{4})|(?:\d{1,2}\.?\s+[A-Za-z]{3,9}\.?\s+\d{4})|(?:[A-Za-z]{3,9}\.?\s+\d{4})|(?:\d{4}))(?:\s*[—–:|·•-]\s*(.+))?$/;

type Milestone = Proposed<{ date: string; title: string; description: string | null; url: string | null }>;

export function extractMilestones(src: Sources): Milestone[] {
  const out: Milestone[] = [];
  for (const { model, el } of src.headings(TIMELINE, src.ordered('about', 'home'))) {
    const lines: Evidence[] = src.sectionLines(model, el);
    for (let i = 0; i < lines.length && out.length < MILESTONES_MAX; i++) {
      const match = DATE_AT_START.exec(lines[i]!.quote);
      if (match === null) continue;
      const stated = statedDates(match[1]!)[0];
      if (stated === undefined) continue;
      let title = match[2]?.trim() ?? null;
      const evidence = [lines[i]!];
      if (title === null || title === '') {
        const next = lines[i + 1];
        if (next === undefined || DATE_AT_START.test(next.quote)) continue;
        title = next.quote;
        evidence.push(next);
        i += 1;
      }
      if (title.length > MILESTONE_TITLE_MAX) continue;
      out.push({ value: { date: isoDate(stated), title, description: null, url: null }, evidence });
    }
    if (out.length > 0) break;
  }
  return out;
}
