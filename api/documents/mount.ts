// GET {site_url}/orders/{number}/documents/{document}.pdf — an order's invoice or credit note, the
// stored bytes as issued. The buyer reads it with an API credential (account:read, the scope of
// get_order) or signed in on the site; anybody else gets the same 404 as for an unknown document.
import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { resolvePrincipal } from '../auth/principal.ts';
import { resourcesOf } from '../auth/challenge.ts';
import { currentUser } from '../auth/session.ts';
import { problem, problemResponse } from '../http/problem.ts';
import { buyerDocument } from '../../core/documents/read.ts';

const ORDER = /^[A-Za-z0-9-]{1,32}$/;
const DOCUMENT = /^([A-Z]{2,3}-\d{4}-\d{6})\.pdf$/;

export function documentsPlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'site'>) {
  const { config, sql, site } = deps;
  const resource = resourcesOf(config).rest;
  const notFound = (request: Request) => problemResponse(request, problem(config.siteUrl, 'not-found', 'No such document.'));

  return new Elysia({ name: 'order-documents' }).get(
    '/orders/:number/documents/:file',
    async ({ request, params }: { request: Request; params: Record<string, string> }) => {
      const file = DOCUMENT.exec(params.file);
      if (!ORDER.test(params.number) || !file) return notFound(request);
      let userId: string | null = null;
      if (request.headers.get('authorization')) {
        const r = await resolvePrincipal(sql, request.headers.get('authorization'), resource);
        if (!r.principal)
          return problemResponse(request, problem(config.siteUrl, 'unauthorized', 'The credential is not valid.'), { 'www-authenticate': 'Bearer' });
        if (!r.principal.scopes.includes('account:read'))
          return problemResponse(request, problem(config.siteUrl, 'forbidden', 'This credential lacks the account:read scope.'));
        userId = r.principal.userId;
      } else {
        userId = (await currentUser(sql, config, request))?.userId ?? null;
        if (!userId)
          return problemResponse(request, problem(config.siteUrl, 'unauthorized', 'Sign in, or send an API credential, to read your documents.'), {
            'www-authenticate': 'Bearer',
          });
      }
      const doc = await buyerDocument(sql, { userId, siteId: site.id }, params.number, file[1]);
      if (!doc) return notFound(request);
      return new Response(new Uint8Array(doc.pdf), {
        headers: {
          'content-type': 'application/pdf',
          'content-disposition': `inline; filename="${doc.number}.pdf"`,
          'cache-control': 'private, max-age=3600',
          'x-content-type-options': 'nosniff',
        },
      });
    },
    { parse: 'none' } as never,
  );
}
