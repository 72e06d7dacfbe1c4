import type { TObject } from '@sinclair/typebox';
import { escapeMarkup } from '../escape.ts';
import type { Operation } from '../registry/operation.ts';
import { PRODUCT_NAME } from '../../sql/product.ts';

function paramRows(schema: TObject | undefined, where: string) {
  if (!schema) return '';
  const req = new Set(schema.required ?? []);
  return Object.entries(schema.properties)
    .map(([name, s]) => {
      const j = s as Record<string, unknown>;
      const bounds = ['enum', 'default', 'minimum', 'maximum', 'maxLength', 'pattern', 'maxItems']
        .filter((k) => j[k] !== undefined)
        .map((k) => `${k}: ${escapeMarkup(JSON.stringify(j[k]))}`)
        .join(', ');
      return `<tr><td><code>${escapeMarkup(name)}</code></td><td>${where}${req.has(name) || where === 'path' ? ' (required)' : ''}</td><td>${escapeMarkup(j.type ?? '')}</td><td>${escapeMarkup(j.description ?? '')} <small>${bounds}</small></td></tr>`;
    })
    .join('');
}

/** A self-contained reference page rendered from the registry: no scripts, no outside assets. */
export function renderDocsPage(ops: Operation[], siteUrl: string): string {
  const byTag = new Map<string, Operation[]>();
  for (const op of ops) byTag.set(op.tag, [...(byTag.get(op.tag) ?? []), op]);
  const sections = [...byTag]
    .map(
      ([tag, list]) =>
        `<h2>${escapeMarkup(tag)}</h2>` +
        list
          .map(
            (op) => `
    <section id="${escapeMarkup(op.name)}"><h3><code>${op.method} /api/v1${escapeMarkup(op.path)}</code> · <code>${escapeMarkup(op.name)}</code></h3>
    <p><strong>${escapeMarkup(op.summary)}.</strong> ${escapeMarkup(op.description)}</p>${op.notes ? `<p>${escapeMarkup(op.notes)}</p>` : ''}
    <p>${op.scope ? `Scope: <code>${escapeMarkup(op.scope)}</code>` : 'Public'}${op.idempotent ? ' · accepts <code>Idempotency-Key</code>' : ''}</p>
    ${op.params || op.query || op.body ? `<table><tr><th>name</th><th>in</th><th>type</th><th>description</th></tr>${paramRows(op.params, 'path')}${paramRows(op.query, 'query')}${paramRows(op.body, 'body')}</table>` : ''}
    </section>`,
          )
          .join(''),
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${PRODUCT_NAME} API</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1d2330}
code{background:#f2f4f8;padding:0 .25em;border-radius:3px}table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}td,th{border:1px solid #dde2ea;padding:.3rem .5rem;text-align:left;vertical-align:top}section{border-top:1px solid #eee;padding-top:.5rem}</style></head>
<body><h1>${PRODUCT_NAME} API</h1>
<p>REST base: <code>${escapeMarkup(siteUrl)}/api/v1</code> · OpenAPI 3.1: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> · MCP (Streamable HTTP): <code>${escapeMarkup(siteUrl)}/mcp</code></p>
<p>Errors are RFC 9457 problems (<code>application/problem+json</code>); invalid input is 400 with each field named. Public reads carry ETags.</p>
${sections}</body></html>`;
}
