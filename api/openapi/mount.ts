import type { Elysia } from 'elysia';
import type { Config } from '../../core/config.ts';
import type { Operation } from '../registry/operation.ts';
import { buildOpenApi } from './document.ts';
import { renderDocsPage } from './docs-page.ts';
import { DOCS_CSP, documentForDocs, renderReferencePage, scalarBundle } from './reference-ui.ts';

/** The OpenAPI document and the docs page are built once: the registry does not change at run time. */
export function mountOpenApi(app: Elysia, prefix: string, ops: Operation[], config: Config) {
  const built = buildOpenApi(ops, config.siteUrl);
  const doc = JSON.stringify(built);
  const plain = renderDocsPage(ops, config.siteUrl);
  const page = renderReferencePage(plain, config.siteUrl);
  const docsDoc = documentForDocs(built, config.siteUrl);
  const cache = `public, max-age=${config.httpCacheMaxAge}`;
  app.get(`${prefix}/openapi.json`, () => new Response(doc, { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': cache } }));
  app.get('/docs', () => new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': cache, 'content-security-policy': DOCS_CSP } }));
  app.get('/docs/plain', () => new Response(plain, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': cache } }));
  app.get('/docs/openapi.json', () => new Response(docsDoc, { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': cache } }));
  app.get('/docs/scalar.js', () => new Response(scalarBundle(), { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' } }));
}
