import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { PROBLEM_KINDS, problem, problemResponse } from './problem.ts';

/** GET /healthz: the edge answers and its database does too. */
export function healthPlugin({ sql }: Pick<AppDeps, 'sql'>) {
  return new Elysia({ name: 'health' }).get('/healthz', async () => {
    await sql`select 1`;
    return { ok: true };
  });
}

/** GET /problems/{kind}: the page each problem's `type` URI points at. */
export function problemPagesPlugin({ config }: Pick<AppDeps, 'config'>) {
  return new Elysia({ name: 'problem-pages' }).get('/problems/:kind', ({ params }) => {
    const k = PROBLEM_KINDS[params.kind];
    if (!k) return problemResponse(problem(config.siteUrl, 'not-found', 'No such problem type.'));
    return new Response(`<!doctype html><meta charset="utf-8"><title>${k.title}</title><h1>${k.status} ${k.title}</h1><p>${k.about}</p>`,
      { headers: { 'content-type': 'text/html; charset=utf-8' } });
  });
}
