import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { API_PREFIX } from '../http/prefix.ts';
import { operations } from '../registry/index.ts';
import type { Operation } from '../registry/operation.ts';
import { buildOpenApi } from './document.ts';
import { renderDocsPage } from './docs-page.tsx';
import { DOCS_CSP, documentForDocs, renderReferencePage, scalarBundle } from './reference-ui.tsx';

/** The OpenAPI document and the docs page are built once: the registry does not change at run time. */
export function openApiPlugin({ config }: Pick<AppDeps, 'config'>, ops: Operation[] = operations, prefix = API_PREFIX) {
  const built = buildOpenApi(ops, config.siteUrl);
  const doc = JSON.stringify(built);
  const plain = renderDocsPage(ops, config.siteUrl);
  const page = renderReferencePage(ops, config.siteUrl);
  const docsDoc = documentForDocs(built, config.siteUrl);
  const cache = `public, max-age=${config.httpCacheMaxAge}`;
  return new Elysia({ name: 'openapi' })
    .get(`${prefix}/openapi.json`, () => new Response(doc, { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': cache } }))
    .get(
      '/docs',
      () => new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': cache, 'content-security-policy': DOCS_CSP } }),
    )
    .get('/docs/plain', () => new Response(plain, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': cache } }))
    .get('/docs/openapi.json', () => new Response(docsDoc, { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': cache } }))
    .get(
      '/docs/scalar.js',
      () =>
        new Response(scalarBundle(), {
          headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' },
        }),
    );
}
