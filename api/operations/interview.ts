import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { activeInterviewQuestions } from '../../sql/queries/interview.ts';

const Question = Type.Object({
  id: Type.Integer({ minimum: 1, description: 'Send this as question_id with an interview answer.' }),
  question: Type.String(),
});

export const interviewOperations: Operation[] = [
  defineOperation({
    name: 'list_interview_questions', method: 'GET', path: '/interview-questions', tag: 'Founders', scope: null,
    summary: 'List the founder interview questions',
    description: 'The questions of the founder interview that owners may answer for their public founder profile.',
    output: Type.Object({ items: Type.Array(Question) }),
    notes: 'Not paginated: `items` holds every active question, in the order the interview asks them. Retired questions are not listed. Takes no parameters.',
    handler: async (_input, { sql }) => ({ items: await activeInterviewQuestions(sql) }),
  }),
];
