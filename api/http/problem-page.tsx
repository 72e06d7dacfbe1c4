// The page each problem `type` URL points at: what the kind means and the codes answered with it.
import { ERROR_CODES } from '../../core/errors/index.ts';
import { renderDocument } from '../view/document.tsx';
import { codesOfKind, PROBLEM_KINDS, type ProblemKind } from './problem.ts';

export function problemPage(kind: ProblemKind): Response {
  const k = PROBLEM_KINDS[kind];
  const codes = codesOfKind(kind);
  const body = renderDocument(
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>{k.title}</title>
      </head>
      <body>
        <h1>
          {k.status} {k.title}
        </h1>
        <p>{k.about}</p>
        <h2>Codes</h2>
        <p>
          The problem's <code>code</code> member tells these apart:
        </p>
        <dl>
          {codes.map((c) => (
            <>
              <dt>
                <code id={c}>{c}</code>
              </dt>
              <dd>{ERROR_CODES[c].about}</dd>
            </>
          ))}
        </dl>
      </body>
    </html>,
  );
  return new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8' } });
}
