import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { API_PREFIX } from '../http/prefix.ts';
import { operations } from '../registry/index.ts';
import type { Operation } from '../registry/operation.ts';
import { buildOpenApi } from './document.ts';
import { renderDocsPage } from './docs-page.ts';

/** The OpenAPI document and the docs page are built once: the registry does not change at run time. */
export function openApiPlugin({ config }: Pick<AppDeps, 'config'>, ops: Operation[] = operations, prefix = API_PREFIX) {
  const doc = JSON.stringify(buildOpenApi(ops, config.siteUrl));
  const page = renderDocsPage(ops, config.siteUrl);
  const cache = `public, max-age=${config.httpCacheMaxAge}`;
  return new Elysia({ name: 'openapi' })
    .get(`${prefix}/openapi.json`, () => new Response(doc, { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': cache } }))
    .get('/docs', () => new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': cache } }));
}
