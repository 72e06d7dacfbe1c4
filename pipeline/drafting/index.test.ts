import { describe, expect, test } from 'bun:test';
import { COMPLETENESS_PARTS, completenessOf } from '../../core/drafts/completeness.ts';
import { applyAi, DRAFT_PARTS, readContent } from '../../core/drafts/model.ts';
import { createDrafter, emptyProposal, ExtractiveDrafter, type DraftProposal } from './index.ts';

// Completeness has one definition (core/drafts/completeness.ts); these check it on what a drafter proposes.
const completenessOfProposal = (p: DraftProposal) => {
  const content = readContent({ fields: {}, faqs: null, founders: null, company_socials: null, founder_socials: null, story: null, milestones: null });
  applyAi(content, p, DRAFT_PARTS);
  return completenessOf(content);
};

describe('completeness and what is missing', () => {
  test('an empty draft misses everything', () => {
    expect(completenessOfProposal(emptyProposal()).completeness).toBe(0);
    expect(completenessOfProposal(emptyProposal()).missing).toEqual([...COMPLETENESS_PARTS]);
  });

  test('counts fields with values, FAQs, founders and company socials; empty values count as missing', () => {
    const p = emptyProposal();
    p.fields.name = { value: 'Acme', evidence: [] };
    p.fields.tagline = { value: '  ', evidence: [] };
    p.fields.features = { value: [], evidence: [] };
    p.fields.categories = { value: ['File Sync'], evidence: [] };
    p.faqs = [{ value: { question: 'Q?', answer: 'A.' }, evidence: [] }];
    p.company_socials = { x: { value: 'https://x.com/acme', evidence: [] } };
    p.story = { story: { value: 'Told.', evidence: [] } }; // optional section: does not count
    const { missing, completeness } = completenessOfProposal(p);
    expect(missing).not.toContain('name');
    expect(missing).not.toContain('categories');
    expect(missing).toContain('tagline');
    expect(missing).toContain('features');
    expect(missing).toContain('founders');
    expect(missing).not.toContain('faqs');
    expect(missing).not.toContain('company_socials');
    expect(completeness).toBe(Math.round((100 * 4) / COMPLETENESS_PARTS.length));
  });
});

test('createDrafter picks the extractive drafter by default', () => {
  const drafter = createDrafter({ kind: 'extractive', openaiApiKey: 'ignored', openaiBaseUrl: null, model: 'm', timeoutMs: 1000 });
  expect(drafter).toBeInstanceOf(ExtractiveDrafter);
  expect(drafter.kind).toBe('extractive');
});
