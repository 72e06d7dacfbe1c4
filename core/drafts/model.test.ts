import { describe, expect, test } from 'bun:test';
import { applyAi, DRAFT_PARTS, lockPart, readContent, restorePart, setField, setSection, type AiProposal } from './model.ts';
import { completenessOf } from './completeness.ts';
import { notFoundFields } from './model.ts';

const empty = () => readContent({ fields: {}, faqs: {}, founders: {}, company_socials: {}, founder_socials: {}, story: {}, milestones: {} });
const ev = (quote: string) => [{ quote, url: 'https://acme.test/' }];
const proposal = (over: Partial<AiProposal> = {}): AiProposal => ({
  fields: { name: { value: 'Acme', evidence: ev('Acme') }, tagline: { value: 'Anvils for all', evidence: ev('Anvils for all') } },
  faqs: [{ value: { question: 'Q?', answer: 'A.' }, evidence: ev('Q?') }],
  founders: [],
  company_socials: { x: { value: 'https://x.com/acme', evidence: ev('X') } },
  founder_socials: {},
  story: {},
  milestones: [],
  ...over,
});

describe('AI drafts', () => {
  test('a first draft fills every part: found values are ai with evidence, the rest not_found', () => {
    const c = empty();
    applyAi(c, proposal(), DRAFT_PARTS);
    expect(c.fields.name).toEqual({ value: 'Acme', state: 'ai', evidence: ev('Acme'), ai: { value: 'Acme', evidence: ev('Acme') } });
    expect(c.fields.city).toEqual({ value: null, state: 'not_found', evidence: [], ai: { value: null, evidence: [] } });
    expect(c.faqs.state).toBe('ai');
    expect(c.faqs.value).toEqual([{ question: 'Q?', answer: 'A.', evidence: ev('Q?') }]);
    expect(c.company_socials.value).toEqual({ x: { value: 'https://x.com/acme', evidence: ev('X') } });
    expect(c.story.state).toBe('not_found');
    expect(notFoundFields(c)).not.toContain('name');
    expect(notFoundFields(c)).toContain('city');
  });

  test('a redraft skips parts the user set, locked or deleted, but records the AI value for restore', () => {
    const c = empty();
    applyAi(c, proposal(), DRAFT_PARTS);
    setField(c, 'name', 'Acme Inc');
    lockPart(c, 'tagline');
    setField(c, 'city', 'Berlin');
    setField(c, 'stage', null);
    setSection(c, 'faqs', []);
    const next = proposal({
      fields: {
        name: { value: 'ACME', evidence: ev('ACME') },
        tagline: { value: 'New', evidence: ev('New') },
        city: { value: 'Paris', evidence: ev('Paris') },
        stage: { value: 'beta', evidence: ev('beta') },
      },
    });
    const changed = applyAi(c, next, DRAFT_PARTS);
    expect(changed).not.toContain('name');
    expect(c.fields.name).toMatchObject({ value: 'Acme Inc', state: 'edited', ai: { value: 'ACME' } });
    expect(c.fields.tagline).toMatchObject({ value: 'Anvils for all', state: 'override', ai: { value: 'New' } });
    expect(c.fields.city).toMatchObject({ value: 'Berlin', state: 'manual', ai: { value: 'Paris' } });
    expect(c.fields.stage).toMatchObject({ value: null, state: 'deleted' });
    expect(c.faqs.state).toBe('deleted');
  });

  test('regenerate forces the named parts only', () => {
    const c = empty();
    applyAi(c, proposal(), DRAFT_PARTS);
    setField(c, 'name', 'Mine');
    setField(c, 'tagline', 'Mine too');
    applyAi(c, proposal({ fields: { name: { value: 'Acme', evidence: ev('Acme') } } }), ['name', 'tagline'], new Set(['name', 'tagline'] as const));
    expect(c.fields.name).toMatchObject({ value: 'Acme', state: 'ai' });
    // Not in the new proposal: the AI now finds nothing, so the field is not_found.
    expect(c.fields.tagline).toMatchObject({ value: null, state: 'not_found', ai: { value: null } });
  });
});

describe('user changes', () => {
  test('typed values are edited when the AI had one, manual when not; blanks delete', () => {
    const c = empty();
    applyAi(c, proposal(), DRAFT_PARTS);
    setField(c, 'tagline', '  Better anvils  ');
    setField(c, 'city', 'Berlin');
    setField(c, 'features', ['  a ', '', 'b']);
    setField(c, 'name', '   ');
    expect(c.fields.tagline).toMatchObject({ value: 'Better anvils', state: 'edited', evidence: [] });
    expect(c.fields.city).toMatchObject({ value: 'Berlin', state: 'manual' });
    expect(c.fields.features).toMatchObject({ value: ['a', 'b'], state: 'manual' });
    expect(c.fields.name).toMatchObject({ value: null, state: 'deleted', ai: { value: 'Acme' } });
  });

  test('restore brings the AI value and evidence back; a part the AI did not find returns as not_found', () => {
    const c = empty();
    applyAi(c, proposal(), DRAFT_PARTS);
    setField(c, 'name', null);
    setField(c, 'city', 'Berlin');
    setSection(c, 'faqs', [{ question: 'Mine?', answer: 'Yes.', evidence: [] }]);
    restorePart(c, 'name');
    restorePart(c, 'city');
    restorePart(c, 'faqs');
    expect(c.fields.name).toMatchObject({ value: 'Acme', state: 'ai', evidence: ev('Acme') });
    expect(c.fields.city).toMatchObject({ value: null, state: 'not_found', evidence: [] });
    expect(c.faqs).toMatchObject({ state: 'ai', value: [{ question: 'Q?' }] });
  });

  test('a section typed before any AI draft is manual, after one edited', () => {
    const c = empty();
    setSection(c, 'story', { story: { value: 'We began.', evidence: [] } });
    expect(c.story.state).toBe('manual');
    applyAi(c, proposal({ story: { story: { value: 'AI story', evidence: ev('AI story') } } }), DRAFT_PARTS);
    expect(c.story).toMatchObject({ state: 'manual', value: { story: { value: 'We began.' } }, ai: { value: { story: { value: 'AI story' } } } });
    setSection(c, 'story', { story: { value: 'Edited.', evidence: [] } });
    expect(c.story.state).toBe('edited');
  });
});

test('completeness counts every profile field plus FAQs, founders and company socials', () => {
  const c = empty();
  expect(completenessOf(c)).toMatchObject({ completeness: 0 });
  expect(completenessOf(c).missing).toHaveLength(21);
  applyAi(c, proposal(), DRAFT_PARTS);
  const { completeness, missing } = completenessOf(c);
  expect(completeness).toBe(Math.round((4 * 100) / 21)); // name, tagline, faqs, company_socials
  expect(missing).not.toContain('name');
  expect(missing).toContain('founders');
  expect(missing).not.toContain('story'); // optional sections do not count
});
