import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { activeInterviewQuestions } from '../../sql/queries/interview.ts';
import { answerInterview } from '../../core/listings/interview-answers.ts';
import type { Principal } from '../registry/operation.ts';
import { interviewExamples } from './interview-examples.ts';

const Question = Type.Object({
  id: Type.Integer({ minimum: 1, description: 'Send this as question_id with an interview answer.' }),
  question: Type.String(),
});

export const interviewOperations: Operation[] = [
  defineOperation({
    name: 'list_interview_questions',
    examples: interviewExamples.list_interview_questions,
    method: 'GET',
    path: '/interview-questions',
    tag: 'Founders',
    scope: null,
    summary: 'List the founder interview questions',
    description: 'Lists the founder interview questions with their ids. Answer them with answer_interview; the answers appear on your public founder profile.',
    output: Type.Object({ items: Type.Array(Question) }),
    notes: 'Not paginated: `items` holds every active question, in the order the interview asks them. Retired questions are not listed. Takes no parameters.',
    handler: async (_input, { sql }) => ({ items: await activeInterviewQuestions(sql) }),
  }),

  defineOperation({
    name: 'answer_interview',
    examples: interviewExamples.answer_interview,
    method: 'PUT',
    path: '/me/interview',
    tag: 'Founders',
    scope: 'listings:write',
    idempotent: true,
    summary: 'Answer founder interview questions',
    description:
      'Saves your answers to founder interview questions (question_id from list_interview_questions), up to 30 per call; answering a question again replaces its answer. Returns the answers saved.',
    body: Type.Object(
      {
        answers: Type.Array(
          Type.Object(
            {
              question_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'An id from list_interview_questions, e.g. 3.' }),
              answer: Type.String({ minLength: 1, maxLength: 4000, pattern: '\\S' }),
            },
            { additionalProperties: false },
          ),
          { minItems: 1, maxItems: 30 },
        ),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      items: Type.Array(
        Type.Object({ question_id: Type.Integer(), question: Type.String(), answer: Type.String(), updated_at: Type.String({ format: 'date-time' }) }),
        {
          description: 'All your answers after this call, in interview order.',
        },
      ),
    }),
    notes:
      'Answers belong to your account (your founder interview), not to one listing. Every question_id must name an active question from list_interview_questions, and each at most once per call (400 naming answers.<i>.question_id otherwise; nothing is stored then). Questions left out keep their earlier answers.',
    handler: async ({ answers }, ctx) => answerInterview(ctx.sql, (ctx.principal as Principal).userId, answers),
  }),
];
