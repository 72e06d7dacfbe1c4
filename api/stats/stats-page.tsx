// GET /account/listings/{id}/stats: the owner's statistics page, the charts of get_listing_stats
// for the last 30 days. Signed-in owners only; anybody else gets the same 404 as an unknown listing.
import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { page } from '../site/frame.tsx';
import { notFoundPage, requireUser, sitePage, type SiteRequest } from '../site/common.tsx';
import { DomainError } from '../../core/errors/index.ts';
import { listingStats } from '../../core/stats/listing-stats.ts';
import { StatsCharts } from './chart.tsx';

export function statsPagePlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'site' | 'log' | 'limiter'>) {
  const { sql, site } = deps;
  return new Elysia({ name: 'listing-stats-page' }).get(
    '/account/listings/:id/stats',
    sitePage(deps, async ({ request, params }: SiteRequest) => {
      const auth = await requireUser(deps, request);
      if ('response' in auth) return auth.response;
      const id = /^\d{1,15}$/.test(params.id) ? Number(params.id) : 0;
      let stats: Awaited<ReturnType<typeof listingStats>>;
      try {
        stats = await listingStats({ sql, userId: auth.user.userId, siteId: site.id }, id, 30);
      } catch (e) {
        if (e instanceof DomainError && e.code === 'not_found') return notFoundPage(auth.user.email);
        throw e;
      }
      const [l] = await sql<{ name: string; slug: string }[]>`select name, slug from listings where id = ${id}`;
      return page({
        title: `Statistics: ${l.name}`,
        signedInAs: auth.user.email,
        body: (
          <>
            <h1>Statistics of {l.name}</h1>
            <p>
              The last 30 days (UTC), {stats.from} to {stats.to}. Website clicks count each visitor once a day; no addresses are stored.
            </p>
            <StatsCharts series={stats.series} />
            <h2>Badge impressions by site</h2>
            {stats.badge_hosts.length ? (
              <table>
                <thead>
                  <tr>
                    <th>Referring host</th>
                    <th>Impressions</th>
                  </tr>
                </thead>
                <tbody>
                  {stats.badge_hosts.map((h) => (
                    <tr>
                      <td>{h.host}</td>
                      <td>{h.impressions}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p>No badge impressions in this period.</p>
            )}
          </>
        ),
      });
    }),
    { parse: 'none' } as never,
  );
}
