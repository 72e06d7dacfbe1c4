// Examples of the interview operations: real answers of the demo data (seeds/), shortened to two items a list.
import type { OperationExamples } from '../registry/operation.ts';

export const interviewExamples = {
  list_interview_questions: {
    output: {
      items: [
        { id: 1, question: 'What problem does your product solve, in one sentence?' },
        { id: 2, question: 'What were you doing before you started this company?' },
      ],
    },
    error: { status: 429, code: 'rate_limited', detail: 'Rate limit reached; retry in 20 s.' },
  },
  answer_interview: {
    input: { answers: [{ question_id: 1, answer: 'Ship the smallest thing that helps one person.' }] },
    output: {
      items: [
        {
          question_id: 1,
          question: 'What problem does your product solve, in one sentence?',
          answer: 'Ship the smallest thing that helps one person.',
          updated_at: '2026-11-28T04:57:53Z',
        },
      ],
    },
    error: {
      status: 400,
      code: 'invalid_input',
      detail: 'Invalid input: answers[0].question_id names no interview question (99999); see list_interview_questions',
      errors: [{ field: 'answers[0].question_id', message: 'names no interview question (99999); see list_interview_questions' }],
    },
  },
} satisfies Record<string, OperationExamples>;
