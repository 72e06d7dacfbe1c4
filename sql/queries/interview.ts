import type { Sql } from '../db.ts';

/** The founder interview as owners see it: active questions in position order. */
export async function activeInterviewQuestions(sql: Sql) {
  return sql<{ id: number; question: string }[]>`
    select id, question from interview_questions where active order by position, id`;
}
