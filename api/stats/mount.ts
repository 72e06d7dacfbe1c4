// The counters behind get_listing_stats that need a route of their own: the counting redirect to a
// listing's website ({site_url}/go/{slug}) and the listing page's view pixel (/v/{slug}.gif).
import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { clientAddress } from '../http/rate-limit.ts';
import { problem, problemResponse } from '../http/problem.ts';
import { countClick, countView, listingWebsite } from '../../core/stats/record.ts';
import { ReadCounter } from '../../core/stats/read-counter.ts';
import { mcpCallArguments } from '../observability/edge-observability.ts';
import { API_PREFIX } from '../http/prefix.ts';
import { pathnameOf } from '../http/wire.ts';

const SLUG = /^[a-z0-9][a-z0-9-]{0,219}$/;
// The smallest transparent GIF (43 bytes).
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export function statsPlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'site' | 'log' | 'atStop'>) {
  const { config, sql, site, log } = deps;
  const notFound = (request: Request) => problemResponse(request, problem(config.siteUrl, 'not-found', 'No live listing with this slug.'));
  type Req = { request: Request; params: Record<string, string> };
  const reads = new ReadCounter(sql, site.id, (err) => log.warn({ err }, 'listing reads not recorded'));
  deps.atStop?.(() => reads.close());
  const restRoute = `${API_PREFIX}/listings/:slug`;

  return (
    new Elysia({ name: 'listing-stats' })
      // get_listing answered over REST or MCP: one read of that listing for its maker's statistics.
      .onAfterResponse({ as: 'global' }, ({ request, route, responseValue, set }) => {
        const status = responseValue instanceof Response ? responseValue.status : typeof set.status === 'number' ? set.status : 200;
        if (status !== 200) return;
        if (route === restRoute && request.method === 'GET') {
          const slug = pathnameOf(request.url).slice(API_PREFIX.length + '/listings/'.length);
          reads.add(slug, 'api');
        } else if (route === '/mcp') {
          const call = mcpCallArguments(request);
          if (call?.tool === 'get_listing' && typeof call.args.slug === 'string') reads.add(call.args.slug, 'mcp');
        }
      })
      .get(
        '/go/:slug',
        async ({ request, params }: Req) => {
          if (!SLUG.test(params.slug)) return notFound(request);
          const target = await listingWebsite(sql, site.id, params.slug);
          if (!target || !/^https?:\/\//i.test(target.url)) return notFound(request);
          try {
            await countClick(sql, target.id, clientAddress(request, { trustProxy: config.trustProxy }), request.headers.get('user-agent') ?? '');
          } catch (err) {
            log.warn({ err }, 'click not counted'); // the visitor still goes on
          }
          return new Response(null, {
            status: 302,
            headers: { location: target.url, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer-when-downgrade', 'x-robots-tag': 'noindex' },
          });
        },
        { parse: 'none' } as never,
      )
      .get(
        '/v/:file',
        async ({ params }: Req) => {
          const m = /^([a-z0-9][a-z0-9-]{0,219})\.gif$/.exec(params.file);
          const target = m ? await listingWebsite(sql, site.id, m[1]) : null;
          if (target) await countView(sql, target.id).catch((err) => log.warn({ err }, 'view not counted'));
          return new Response(new Uint8Array(PIXEL), { headers: { 'content-type': 'image/gif', 'cache-control': 'no-store', 'x-robots-tag': 'noindex' } });
        },
        { parse: 'none' } as never,
      )
  );
}
