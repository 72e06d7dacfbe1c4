import type { TObject } from '@sinclair/typebox';
import type { Operation } from '../registry/operation.ts';
import { PRODUCT_NAME } from '../../sql/product.ts';
import { renderDocument } from '../view/document.tsx';
import { examplePart, exampleProblem } from './document.ts';

const BOUNDS = ['enum', 'default', 'minimum', 'maximum', 'maxLength', 'pattern', 'maxItems'];

function ParamRows({ schema, where }: { schema: TObject | undefined; where: string }) {
  if (!schema) return null;
  const req = new Set(schema.required ?? []);
  return (
    <>
      {Object.entries(schema.properties).map(([name, s]) => {
        const j = s as Record<string, unknown>;
        const bounds = BOUNDS.filter((k) => j[k] !== undefined)
          .map((k) => `${k}: ${JSON.stringify(j[k])}`)
          .join(', ');
        return (
          <tr>
            <td>
              <code>{name}</code>
            </td>
            <td>
              {where}
              {req.has(name) || where === 'path' ? ' (required)' : ''}
            </td>
            <td>{String(j.type ?? '')}</td>
            <td>
              {String(j.description ?? '')} <small>{bounds}</small>
            </td>
          </tr>
        );
      })}
    </>
  );
}

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** An operation's examples: the call (REST and MCP arguments), its answer and its most common error. */
function Examples({ op, siteUrl }: { op: Operation; siteUrl: string }) {
  const ex = op.examples!;
  const path = op.path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(String(ex.input?.[k] ?? `{${k}}`)));
  const query = examplePart(op.query, ex.input);
  const body = examplePart(op.body, ex.input);
  const qs = query ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}` : '';
  return (
    <>
      <h4>Example</h4>
      <pre>
        <code>{`${op.method} /api/v1${path}${qs}${body ? `\n\n${json(body)}` : ''}`}</code>
      </pre>
      {ex.input && (
        <p>
          As MCP arguments of <code>{op.name}</code>: <code>{JSON.stringify(ex.input)}</code>
        </p>
      )}
      <p>{op.status ?? 200} answer:</p>
      <pre>
        <code>{json(ex.output)}</code>
      </pre>
      <p>Most common error ({ex.error.status}):</p>
      <pre>
        <code>{json(exampleProblem(siteUrl, ex.error))}</code>
      </pre>
    </>
  );
}

/** The reference itself, from the registry: every operation by tag with its inputs. */
export function DocsReference({ ops, siteUrl }: { ops: Operation[]; siteUrl: string }) {
  const byTag = new Map<string, Operation[]>();
  for (const op of ops) byTag.set(op.tag, [...(byTag.get(op.tag) ?? []), op]);
  return (
    <>
      <h1>{PRODUCT_NAME} API</h1>
      <p>
        REST base: <code>{siteUrl}/api/v1</code> · OpenAPI 3.1: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> · MCP (Streamable HTTP):{' '}
        <code>{siteUrl}/mcp</code>
      </p>
      <p>
        Errors are RFC 9457 problems (<code>application/problem+json</code>); invalid input is 400 with each field named. Public reads carry ETags.
      </p>
      {[...byTag].map(([tag, list]) => (
        <>
          <h2>{tag}</h2>
          {list.map((op) => (
            <section id={op.name}>
              <h3>
                <code>
                  {op.method} /api/v1{op.path}
                </code>{' '}
                · <code>{op.name}</code>
              </h3>
              <p>
                <strong>{op.summary}.</strong> {op.description}
              </p>
              {op.notes && <p>{op.notes}</p>}
              <p>
                {op.scope ? (
                  <>
                    Scope: <code>{op.scope}</code>
                  </>
                ) : (
                  'Public'
                )}
                {op.idempotent && (
                  <>
                    {' '}
                    · accepts <code>Idempotency-Key</code>
                  </>
                )}
              </p>
              {(op.params || op.query || op.body) && (
                <table>
                  <tbody>
                    <tr>
                      <th>name</th>
                      <th>in</th>
                      <th>type</th>
                      <th>description</th>
                    </tr>
                    <ParamRows schema={op.params} where="path" />
                    <ParamRows schema={op.query} where="query" />
                    <ParamRows schema={op.body} where="body" />
                  </tbody>
                </table>
              )}
              {op.examples && <Examples op={op} siteUrl={siteUrl} />}
            </section>
          ))}
        </>
      ))}
    </>
  );
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1d2330}
code{background:#f2f4f8;padding:0 .25em;border-radius:3px}table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}td,th{border:1px solid #dde2ea;padding:.3rem .5rem;text-align:left;vertical-align:top}section{border-top:1px solid #eee;padding-top:.5rem}pre{background:#f6f8fb;padding:.5rem;overflow:auto;max-height:24rem}`;

/** A self-contained reference page rendered from the registry: no scripts, no outside assets. */
export function renderDocsPage(ops: Operation[], siteUrl: string): string {
  return renderDocument(
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{PRODUCT_NAME} API</title>
        {/* Our own fixed stylesheet, not data. */}
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <DocsReference ops={ops} siteUrl={siteUrl} />
      </body>
    </html>,
  );
}
