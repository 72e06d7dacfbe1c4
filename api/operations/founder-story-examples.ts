// Examples of the founder-story operations: real answers of the demo data (seeds/), shortened to two items a list.
import type { OperationExamples } from '../registry/operation.ts';

export const founderStoryExamples = {
  set_founder_story: {
    input: { listing_id: 1, why_started: 'We lost too many good ideas in scattered documents.' },
    output: { sections: { why_started: 'We lost too many good ideas in scattered documents.' }, updated_at: '2026-11-28T04:57:52Z', published: false },
    error: {
      status: 400,
      code: 'invalid_input',
      detail: 'Invalid input: story expected string length less or equal to 8000',
      errors: [{ field: 'story', in: 'body', message: 'expected string length less or equal to 8000' }],
    },
  },
} satisfies Record<string, OperationExamples>;
