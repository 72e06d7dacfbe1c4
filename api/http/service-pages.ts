import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { isProblemKind, problem, problemResponse } from './problem.ts';
import { problemPage } from './problem-page.tsx';

/** GET /healthz: the edge answers and its database does too. */
export function healthPlugin({ sql }: Pick<AppDeps, 'sql'>) {
  return new Elysia({ name: 'health' }).get('/healthz', async () => {
    await sql`select 1`;
    return { ok: true };
  });
}

/** GET /problems/{kind}: the page each problem's `type` URI points at. */
export function problemPagesPlugin({ config }: Pick<AppDeps, 'config'>) {
  return new Elysia({ name: 'problem-pages' }).get('/problems/:kind', ({ params, request }) =>
    isProblemKind(params.kind) ? problemPage(params.kind) : problemResponse(request, problem(config.siteUrl, 'not-found', 'No such problem type.')),
  );
}
