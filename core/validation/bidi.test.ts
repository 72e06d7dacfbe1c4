import { Type } from '@sinclair/typebox';
import { describe, expect, test } from 'bun:test';
import { bidiIssues } from './bidi.ts';

const schema = Type.Object({
  name: Type.String({ maxLength: 80 }),
  description: Type.Optional(Type.String({ maxLength: 5000 })),
  tags: Type.Optional(Type.Array(Type.String({ maxLength: 40 }))),
  faqs: Type.Optional(Type.Array(Type.Object({ question: Type.String({ maxLength: 200 }), answer: Type.String({ maxLength: 2000 }) }))),
  socials: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 500 }))),
  tagline: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
});

describe('bidirectional control characters', () => {
  test('are refused in single-line fields, however deep, with the field named', () => {
    const v = {
      name: 'Ledgerly\u202Egpj.exe',
      tags: ['ok', '\u2066x\u2069'],
      faqs: [{ question: 'Why\u202B?', answer: 'fine' }],
      socials: { x: 'https://x.com/a\u202Db' },
      tagline: 'a\u2067b',
    };
    expect(bidiIssues(schema, v).map((i) => i.field)).toEqual(['name', 'tags[1]', 'faqs[0].question', 'socials.x', 'tagline']);
  });

  test('are removed from long text, and text without them is untouched', () => {
    const v = { name: 'Ledgerly', description: 'Read \u202Eevil\u202C this', faqs: [{ question: 'Q', answer: 'A\u2068B\u2069' }] };
    expect(bidiIssues(schema, v)).toEqual([]);
    expect(v.description).toBe('Read evil this');
    expect(v.faqs[0].answer).toBe('AB');
  });
});
