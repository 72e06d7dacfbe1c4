import { describe, expect, test } from 'bun:test';
import { COMPLETENESS_ITEMS, completeness, createDrafter, emptyProposal, ExtractiveDrafter, missingFields } from './index.ts';

describe('completeness and what is missing', () => {
  test('an empty draft misses everything', () => {
    expect(completeness(emptyProposal())).toBe(0);
    expect(missingFields(emptyProposal())).toEqual([...COMPLETENESS_ITEMS]);
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
    const missing = missingFields(p);
    expect(missing).not.toContain('name');
    expect(missing).not.toContain('categories');
    expect(missing).toContain('tagline');
    expect(missing).toContain('features');
    expect(missing).toContain('founders');
    expect(missing).not.toContain('faqs');
    expect(missing).not.toContain('company_socials');
    expect(completeness(p)).toBe(Math.round((100 * 4) / COMPLETENESS_ITEMS.length));
  });

  test('accepts a stored draft with plain values', () => {
    const stored = { fields: { name: 'Acme', founded_year: null, country: 'DE' }, faqs: [], founders: null, company_socials: { x: null } };
    expect(missingFields(stored)).not.toContain('country');
    expect(missingFields(stored)).toContain('founded_year');
    expect(missingFields(stored)).toContain('company_socials');
    expect(completeness(stored)).toBe(Math.round((100 * 2) / COMPLETENESS_ITEMS.length));
  });
});

test('createDrafter picks the extractive drafter by default', () => {
  const drafter = createDrafter({ kind: 'extractive', openaiApiKey: 'ignored', openaiBaseUrl: null, model: 'm', timeoutMs: 1000 });
  expect(drafter).toBeInstanceOf(ExtractiveDrafter);
  expect(drafter.kind).toBe('extractive');
});
