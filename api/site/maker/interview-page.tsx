// /me/interview: the founder interview, answered on a form (answer_interview, the API's operation).
import { Elysia } from 'elysia';
import type { DomainError } from '../../../core/errors/index.ts';
import { myAnswers } from '../../../core/listings/interview-answers.ts';
import { CsrfField } from '../../pages/components.tsx';
import { redirect } from '../common.tsx';
import { makerPage, Problem, statusOf } from './maker-frame.tsx';
import { attempt, makerGet, makerPost, type MakerDeps, type MakerRequest } from './forms.tsx';
import { runOp } from './run-op.ts';

export function interviewPagePlugin(deps: MakerDeps) {
  const { config } = deps;
  const none = { parse: 'none' } as const;

  const interviewPage = async (ctx: MakerRequest, opts: { err?: DomainError | null; typed?: Record<string, string>; done?: string | null } = {}) => {
    const [questions, answers] = await Promise.all([runOp(deps, ctx.user, 'list_interview_questions'), myAnswers(deps.sql, ctx.user.userId)]);
    const current = new Map(answers.map((a) => [a.question_id, a.answer]));
    return makerPage({
      config,
      siteName: deps.site.name,
      user: ctx.user,
      title: 'Founder interview',
      path: '/me/interview',
      status: opts.err ? statusOf(opts.err) : 200,
      headers: ctx.headers,
      body: (
        <>
          <h1>Founder interview</h1>
          <p>Your answers appear on your public founder profile. Answer any you like; an answer left empty keeps the one you gave before.</p>
          <Problem err={opts.err ?? null} />
          {opts.done ? (
            <p class="notice" role="status">
              {opts.done}
            </p>
          ) : null}
          {questions.items.length ? (
            <form method="post" action="/me/interview">
              <CsrfField token={ctx.csrf} />
              {questions.items.map((q: { id: number; question: string }) => (
                <div class="field">
                  <label for={`q-${q.id}`}>{q.question}</label>
                  <textarea id={`q-${q.id}`} name={`answer:${q.id}`} rows={3} maxLength={4000}>
                    {opts.typed?.[String(q.id)] ?? current.get(q.id) ?? ''}
                  </textarea>
                </div>
              ))}
              <button type="submit">Save answers</button>
            </form>
          ) : (
            <p class="empty">No interview questions yet.</p>
          )}
        </>
      ),
    });
  };

  return new Elysia({ name: 'maker-interview' })
    .get(
      '/me/interview',
      makerGet(deps, (ctx) => interviewPage(ctx, { done: new URL(ctx.request.url).searchParams.has('saved') ? 'Answers saved.' : null })),
      none,
    )
    .post(
      '/me/interview',
      makerPost(
        deps,
        () => '/me/interview',
        async (ctx) => {
          const typed: Record<string, string> = {};
          const answers: { question_id: number | string; answer: string }[] = [];
          for (const [k, v] of ctx.form) {
            const m = /^answer:(\d{1,10})$/.exec(k);
            if (!m || typeof v !== 'string') continue;
            typed[m[1]] = v;
            if (v.trim()) answers.push({ question_id: Number(m[1]), answer: v });
          }
          if (!answers.length) return redirect(config, '/me/interview');
          const r = await attempt(() => runOp(deps, ctx.user, 'answer_interview', { body: { answers } }));
          if (r.err) return interviewPage(ctx, { err: r.err, typed });
          return redirect(config, '/me/interview?saved');
        },
      ),
      none,
    );
}
