import type { Elysia } from 'elysia';
import type { Config } from '../../core/config.ts';
import type { Operation } from '../registry/operation.ts';
import { buildOpenApi } from './document.ts';
import { renderDocsPage } from './docs-page.ts';

/** The OpenAPI document and the docs page are built once: the registry does not change at run time. */
export function mountOpenApi(app: Elysia, prefix: string, ops: Operation[], config: Config) {
  const doc = JSON.stringify(buildOpenApi(ops, config.siteUrl));
  const page = renderDocsPage(ops, config.siteUrl);
  const cache = `public, max-age=${config.httpCacheMaxAge}`;
  app.get(`${prefix}/openapi.json`, () => new Response(doc, { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': cache } }));
  app.get('/docs', () => new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': cache } }));
}
