// Examples of the milestones operations: real answers of the demo data (seeds/), shortened to two items a list.
import type { OperationExamples } from '../registry/operation.ts';

export const milestonesExamples = {
  add_milestone: {
    input: { listing_id: 1, date: '2025-03-01', title: 'Reached 1,000 paying teams' },
    output: { id: 142, listing_id: 1, date: '2025-03-01', title: 'Reached 1,000 paying teams', description: null, url: null, published: false },
    error: {
      status: 400,
      code: 'invalid_input',
      detail: "Invalid input: date expected string to match 'date' format",
      errors: [{ field: 'date', in: 'body', message: "expected string to match 'date' format" }],
    },
  },
  delete_milestone: {
    input: { listing_id: 1, milestone_id: 142 },
    output: { id: 142, deleted: true },
    error: { status: 404, code: 'not_found', detail: 'No milestone 981 on listing 1.' },
  },
} satisfies Record<string, OperationExamples>;
