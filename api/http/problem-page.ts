// The page each problem `type` URL points at: what the kind means and the codes answered with it.
import { ERROR_CODES } from '../../core/errors/index.ts';
import { html } from '../site/html.ts';
import { codesOfKind, PROBLEM_KINDS, type ProblemKind } from './problem.ts';

export function problemPage(kind: ProblemKind): Response {
  const k = PROBLEM_KINDS[kind];
  const codes = codesOfKind(kind);
  const body = html`<!doctype html><meta charset="utf-8"><title>${k.title}</title><h1>${k.status} ${k.title}</h1><p>${k.about}</p>
<h2>Codes</h2>
<p>The problem's <code>code</code> member tells these apart:</p>
<dl>${codes.map((c) => html`<dt><code id="${c}">${c}</code></dt><dd>${ERROR_CODES[c].about}</dd>`)}</dl>`;
  return new Response(body.value, { headers: { 'content-type': 'text/html; charset=utf-8' } });
}
