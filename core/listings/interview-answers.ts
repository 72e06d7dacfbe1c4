// answer_interview: the caller's answers to the founder interview; answering again replaces.
import { transaction, type Sql } from '../../sql/db.ts';
import { invalidFields, type FieldIssue } from '../errors/index.ts';

export interface Answer {
  question_id: number;
  answer: string;
}

export async function answerInterview(sql: Sql, userId: string, answers: Answer[]) {
  return transaction(sql, async (t) => {
    const ids = answers.map((a) => a.question_id);
    const known = new Set((await t<{ id: number }[]>`select id from interview_questions where active and id = any(${ids}::int[])`).map((q) => q.id));
    const seen = new Set<number>();
    const issues: FieldIssue[] = [];
    answers.forEach((a, i) => {
      if (!known.has(a.question_id))
        issues.push({ field: `answers.${i}.question_id`, message: `names no interview question (${a.question_id}); see list_interview_questions` });
      else if (seen.has(a.question_id)) issues.push({ field: `answers.${i}.question_id`, message: 'is answered twice in this call' });
      seen.add(a.question_id);
    });
    if (issues.length) throw invalidFields(issues);
    for (const a of answers) {
      await t`insert into interview_answers (user_id, question_id, answer) values (${userId}::bigint, ${a.question_id}, ${a.answer.trim()})
              on conflict (user_id, question_id) do update set answer = excluded.answer, updated_at = now()`;
    }
    return { items: await myAnswers(t, userId) };
  });
}

/** The person's answers, in interview order. */
export function myAnswers(sql: Sql, userId: string) {
  return sql<{ question_id: number; question: string; answer: string; updated_at: string }[]>`
    select a.question_id, q.question, a.answer, to_char(a.updated_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as updated_at
    from interview_answers a join interview_questions q on q.id = a.question_id
    where a.user_id = ${userId}::bigint order by q.position, q.id`;
}
