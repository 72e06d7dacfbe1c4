import { Elysia } from 'elysia';
import { answerRead, readThrough } from '../http/public-read.ts';
import { readOp, type PageDeps } from './data.ts';
import { el, xmlDocument } from './xml.ts';
import { latestUpdates } from '../../sql/queries/updates.ts';
import { liveListingCount, liveListingSlugs, otherSlugs, SITEMAP_PAGE_SIZE } from '../../sql/queries/sitemap.ts';

/**
 * What makes the site findable: robots.txt, a sitemap index whose child sitemaps page the live
 * listings 10,000 at a time (so it scales past 100k listings), and Atom feeds. All public, cached
 * in the edge's response cache and invalidated with directory_changed().
 */
export function seoRoutes(deps: PageDeps) {
  const { config } = deps;
  const site = config.siteUrl;
  const maxAge = config.httpCacheMaxAge;

  const cached =
    (type: string, build: (url: URL, params: Record<string, string>) => Promise<string | null>) =>
    async ({ request, params }: { request: Request; params: Record<string, string> }) => {
      const url = new URL(request.url);
      // Through the public-read pipeline: cached, computed once however many ask, 304 on a match.
      const out = await readThrough(
        deps,
        `seo:${url.pathname}`,
        () => request.signal,
        async () => {
          const body = await build(url, params);
          return body === null ? { status: 404, body: 'Not found' } : { body };
        },
      );
      if (out.status === 404) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
      return answerRead(request, out, { 'content-type': type, 'x-content-type-options': 'nosniff' }, maxAge);
    };

  const XML = 'application/xml; charset=utf-8';
  const ATOM = 'application/atom+xml; charset=utf-8';
  const urlset = (urls: { loc: string; lastmod?: string }[]) =>
    xmlDocument(
      el(
        'urlset',
        { xmlns: 'http://www.sitemaps.org/schemas/sitemap/0.9' },
        urls.map((u) => el('url', null, [el('loc', null, [u.loc]), u.lastmod && el('lastmod', null, [u.lastmod])])),
        '\n',
      ),
    );

  const feed = (o: {
    id: string;
    title: string;
    self: string;
    alternate: string;
    entries: { id: string; title: string; link: string; updated: string; summary: string; author?: string }[];
  }) =>
    xmlDocument(
      el(
        'feed',
        { xmlns: 'http://www.w3.org/2005/Atom' },
        [
          el('id', null, [o.id]),
          el('title', null, [o.title]),
          el('updated', null, [o.entries[0]?.updated ?? new Date(0).toISOString()]),
          el('link', { rel: 'self', type: 'application/atom+xml', href: o.self }),
          el('link', { rel: 'alternate', type: 'text/html', href: o.alternate }),
          el('author', null, [el('name', null, [deps.site.name])]),
          ...o.entries.map((e) =>
            el('entry', null, [
              el('id', null, [e.id]),
              el('title', null, [e.title]),
              el('link', { rel: 'alternate', type: 'text/html', href: e.link }),
              el('updated', null, [e.updated]),
              e.author && el('author', null, [el('name', null, [e.author])]),
              el('summary', { type: 'text' }, [e.summary]),
            ]),
          ),
        ],
        '\n',
      ),
      'utf-8',
    );

  return new Elysia({ name: 'public-pages-seo' })
    .get(
      '/robots.txt',
      () =>
        new Response(
          `User-agent: *\nAllow: /\nDisallow: /account\nDisallow: /sign-in\nDisallow: /oauth\nDisallow: /api/\nDisallow: /search?\n\nSitemap: ${site}/sitemap.xml\n`,
          { headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' } },
        ),
      { parse: 'none' },
    )
    .get(
      '/sitemap.xml',
      cached(XML, async () => {
        const pages = Math.max(1, Math.ceil((await liveListingCount(deps.sql, deps.site.id)) / SITEMAP_PAGE_SIZE));
        const maps = [`${site}/sitemaps/pages.xml`, ...Array.from({ length: pages }, (_, i) => `${site}/sitemaps/listings-${i + 1}.xml`)];
        return xmlDocument(
          el(
            'sitemapindex',
            { xmlns: 'http://www.sitemaps.org/schemas/sitemap/0.9' },
            maps.map((m) => el('sitemap', null, [el('loc', null, [m])])),
            '\n',
          ),
        );
      }),
      { parse: 'none' },
    )
    .get(
      '/sitemaps/pages.xml',
      cached(XML, async () => {
        const o = await otherSlugs(deps.sql, deps.site.id);
        const fixed = [
          '/',
          '/launches',
          '/leaderboards',
          '/leaderboards/community-weekly',
          '/leaderboards/community-all-time',
          '/leaderboards/billboard',
          '/leaderboards/domain-rating',
          '/leaderboards/revenue',
          '/categories',
          '/founders',
          '/blog',
          '/awards',
          '/updates',
          '/pricing',
          '/search',
          '/compare',
        ];
        return urlset([
          ...fixed.map((p) => ({ loc: site + p })),
          ...o.categories.map((c) => ({ loc: `${site}/categories/${c.slug}` })),
          ...o.founders.map((f) => ({ loc: `${site}/founders/${f.slug}` })),
          ...o.posts.map((p) => ({ loc: `${site}/blog/${p.slug}` })),
        ]);
      }),
      { parse: 'none' },
    )
    .get(
      '/sitemaps/:file',
      cached(XML, async (_url, params) => {
        const m = /^listings-(\d{1,6})\.xml$/.exec(params.file);
        if (!m || Number(m[1]) < 1) return null;
        const rows = await liveListingSlugs(deps.sql, deps.site.id, Number(m[1]));
        if (!rows.length && Number(m[1]) > 1) return null;
        return urlset(rows.map((r) => ({ loc: `${site}/listings/${r.slug}`, lastmod: r.lastmod })));
      }),
      { parse: 'none' },
    )
    .get(
      '/feeds/launches.xml',
      cached(ATOM, async () => {
        const out = await readOp(deps, 'list_launches', { query: { section: 'recent', per_page: '50' } });
        return feed({
          id: `${site}/launches`,
          title: `${deps.site.name}: launches`,
          self: `${site}/feeds/launches.xml`,
          alternate: `${site}/launches?section=recent`,
          entries: out.items.map((l: any) => ({
            id: l.profile_url,
            title: l.name,
            link: l.profile_url,
            updated: l.launched_at ?? new Date(0).toISOString(),
            summary: l.tagline ?? '',
          })),
        });
      }),
      { parse: 'none' },
    )
    .get(
      '/feeds/blog.xml',
      cached(ATOM, async () => {
        const out = await readOp(deps, 'list_blog_posts', { query: { per_page: '50' } });
        return feed({
          id: `${site}/blog`,
          title: `${deps.site.name}: blog`,
          self: `${site}/feeds/blog.xml`,
          alternate: `${site}/blog`,
          entries: out.items.map((p: any) => ({
            id: p.url,
            title: p.title,
            link: p.url,
            updated: p.published_at,
            summary: p.excerpt ?? '',
            author: p.author || undefined,
          })),
        });
      }),
      { parse: 'none' },
    )
    .get(
      '/feeds/listings/:file',
      cached(ATOM, async (_url, params) => {
        const m = /^([a-z0-9][a-z0-9-]{0,219})\.xml$/.exec(params.file);
        if (!m) return null;
        const l = await readOp(deps, 'get_listing', { path: { slug: m[1] } }).catch(() => null);
        if (!l) return null;
        const out = await latestUpdates(deps.sql, deps.site.id, 1, 50, l.slug);
        return feed({
          id: `${l.profile_url}#updates`,
          title: `${l.name}: updates`,
          self: `${site}/feeds/listings/${l.slug}.xml`,
          alternate: l.profile_url,
          entries: out.items.map((u) => ({
            id: `${l.profile_url}#update-${u.id}`,
            title: u.title,
            link: l.profile_url,
            updated: u.created_at,
            summary: u.body,
          })),
        });
      }),
      { parse: 'none' },
    );
}
