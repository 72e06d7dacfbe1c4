import { createHash, randomBytes } from 'node:crypto';
import { Elysia } from 'elysia';
import { DomainError } from '../../core/errors/index.ts';
import { errorHeaders } from '../http/problem.ts';
import { cookieSettings, readCookies } from '../auth/cookies.ts';
import { currentUser } from '../auth/session.ts';
import { abandonedAnswer, answerRead, readThrough } from '../http/public-read.ts';
import { rateGate } from '../http/rate-gate.ts';
import { clientAddress, rateLimitHeaders } from '../http/rate-limit.ts';
import { csrfToken } from '../auth/csrf.ts';
import type { PageDeps } from './data.ts';
import * as pages from './directory-pages.ts';
import { frame, pageHeaders, type Viewer } from './layout.tsx';
import { renderListing, type Personal } from './listing-page.tsx';
import { viewCounter } from './view-counts.ts';
import {
  viewerState,
  liveListingId,
  vote,
  unvote,
  follow,
  unfollow,
  saveReview,
  flagReview,
  replyToReview,
  type ActionOutcome,
} from '../../core/community/actions.ts';
import { networkOf, uaFamilyOf } from '../../core/community/vote-signals.ts';
import { readCheckedForm, field, signInPath } from '../site/common.tsx';
import { ASSETS } from './assets.ts';
import { faviconResponse } from './favicon.ts';
import { seoRoutes } from './seo.ts';
import { comingSoonPlugin, comingSoonResponse } from './coming-soon-page.tsx';

export type { PageDeps };

type Ctx = { request: Request; params: Record<string, string> };

/**
 * The site's 404 page for a browser asking for an unknown address outside the API surfaces (their
 * clients get problem+json as before); null when the request is not one.
 */
export function notFoundPage(deps: PageDeps, request: Request): Response | null {
  const path = new URL(request.url).pathname;
  if (!(request.headers.get('accept') ?? '').includes('text/html') || /^\/(api|mcp|oauth|\.well-known)(\/|$)/.test(path)) return null;
  const r = pages.notFoundRenderer();
  const body = frame({ ...r.meta, siteName: deps.site.name, siteUrl: deps.config.siteUrl }, r.body, null);
  return new Response(body, { status: 404, headers: pageHeaders({ 'cache-control': 'no-store' }) });
}

/**
 * The public site for people: server-rendered pages over the same operations the API serves.
 *
 * Caching: a request without a session cookie gets the anonymous render, which is the same for
 * everyone and is kept in the edge's response cache (invalidated with every directory_changed())
 * and sent with an ETag and a public Cache-Control. A signed-in request is rendered for that
 * person (their vote, follow and review, the CSRF field of their forms) and sent private, no-store:
 * personal state never enters a shared cache.
 */
export function publicPagesPlugin(deps: PageDeps) {
  const { config, log, limiter } = deps;
  const maxAge = config.httpCacheMaxAge;
  const sessionCookie = cookieSettings(config).session;
  const processSalt = randomBytes(16).toString('hex');

  const viewerOf = async (request: Request) => (readCookies(request)[sessionCookie] ? currentUser(deps.sql, config, request) : null);

  /** A page for one person, or an error page: never kept by a shared cache, so it needs no ETag. */
  const personalPage = (status: number, body: string, extra: Record<string, string> = {}) =>
    new Response(body, { status, headers: pageHeaders({ vary: 'Cookie', 'cache-control': 'private, no-store', ...extra }) });

  const errorPage = (err: unknown, request: Request, viewer: Viewer | null) => {
    const gone = abandonedAnswer(err);
    if (gone) return gone;
    const site = { siteName: deps.site.name, siteUrl: config.siteUrl };
    if (err instanceof DomainError && (err.kind === 'not_found' || err.kind === 'invalid')) {
      const r = err.kind === 'not_found' ? pages.notFoundRenderer() : pages.badRequestRenderer(err.message);
      return personalPage(r.status!, frame({ ...r.meta, ...site }, r.body, viewer));
    }
    // PostgreSQL down (or too slow): a 503 to retry, as the API answers, not a 500.
    if (err instanceof DomainError && err.kind === 'unavailable') {
      const r = pages.unavailableRenderer();
      return personalPage(r.status!, frame({ ...r.meta, ...site }, r.body, viewer), errorHeaders(err));
    }
    log.error({ err, path: new URL(request.url).pathname }, 'page failed');
    const r = pages.serverErrorRenderer();
    return personalPage(r.status!, frame({ ...r.meta, ...site }, r.body, viewer));
  };

  // Pages spend the anonymous read budget of the client address, through the gate REST and MCP use;
  // a refusal is a short text for people rather than a problem document.
  const gate = rateGate(
    limiter,
    config,
    (d) =>
      new Response(`Too many requests. Please wait ${d.resetSeconds} seconds.`, {
        status: 429,
        headers: { 'content-type': 'text/plain; charset=utf-8', ...rateLimitHeaders(d) },
      }),
  );
  const limited = async (request: Request) => {
    if (/%00/.test(request.url)) return new Response('Bad request', { status: 400 });
    return (await gate(request, { principal: null }, false)).refused;
  };

  /**
   * The anonymous render of a page, through the public-read pipeline (cache, single flight,
   * ETag and 304). A page that is not a 200 is sent private, as error pages are.
   */
  const anonymous = async (key: string, request: Request, render: (d: typeof deps) => Promise<{ status: number; body: string }>) => {
    const out = await readThrough(
      deps,
      key,
      () => request.signal,
      (sql, signal) => render({ ...deps, sql, signal }),
    );
    if ((out.status ?? 200) !== 200) return personalPage(out.status!, out.body);
    return answerRead(request, out, pageHeaders({ vary: 'Cookie' }), maxAge);
  };

  /** A page of the directory: anonymous renders are shared and cached; signed-in renders are not. */
  const page =
    (render: pages.Renderer) =>
    async ({ request, params }: Ctx) => {
      const refused = await limited(request);
      if (refused) return refused;
      const url = new URL(request.url);
      let viewer: Viewer | null = null;
      try {
        viewer = await viewerOf(request);
        if (!viewer) {
          return await anonymous(`page:${url.pathname}${url.search}`, request, async (d) => {
            const r = await render(d, url, params);
            return { status: r.status ?? 200, body: frame({ ...r.meta, siteName: deps.site.name, siteUrl: config.siteUrl }, r.body, null) };
          });
        }
        const r = await render(deps, url, params);
        const body = frame({ ...r.meta, siteName: deps.site.name, siteUrl: config.siteUrl }, r.body, viewer);
        return personalPage(r.status ?? 200, body);
      } catch (err) {
        return errorPage(err, request, viewer);
      }
    };

  /** The listing page: counts the view, then serves the anonymous render (cached) or the person's own. */
  const listingPage = async ({ request, params }: Ctx) => {
    const refused = await limited(request);
    if (refused) return refused;
    const url = new URL(request.url);
    let viewer: Viewer | null = null;
    try {
      viewer = await viewerOf(request);
      const slug = params.slug;
      countView(request, slug);
      if (!viewer) {
        return await anonymous(`page:${url.pathname}`, request, async (d) => {
          const r = await renderListing(d, slug, async () => null);
          return { status: 200, body: frame({ ...r.meta, siteName: deps.site.name, siteUrl: config.siteUrl }, r.body, null) };
        });
      }
      let setCookie: Record<string, string> = {};
      const user = viewer as (Viewer & { userId: string }) | null;
      const r = await renderListing(deps, slug, async (listingId): Promise<Personal | null> => {
        if (!user) return null;
        const { token: csrf, setCookie: cookie } = csrfToken(config, request);
        if (cookie) setCookie = { 'set-cookie': cookie };
        const { owns, ...state } = await viewerState(deps.sql, listingId, user.userId);
        return { email: user.email, csrf, ...state, isOwner: owns };
      });
      const body = frame({ ...r.meta, siteName: deps.site.name, siteUrl: config.siteUrl }, r.body, viewer);
      return personalPage(200, body, setCookie);
    } catch (err) {
      const soon = err instanceof DomainError && err.kind === 'not_found' ? await comingSoonResponse(deps, request, params.slug, viewer) : null;
      if (soon) return soon;
      return errorPage(err, request, viewer);
    }
  };

  // What identifies a visitor for the view count (hashed in the database), and for a vote whether it visited before.
  const visitorOf = (request: Request) => `${clientAddress(request, { trustProxy: config.trustProxy })}|${request.headers.get('user-agent') ?? ''}`;

  // Visitors this process already counted today (keyed by a hash, never the address itself), so a
  // reload costs no database write; the database's own per-day key still decides across instances.
  const counted = new Set<string>();
  let countedDay = '';
  const recordView = viewCounter(deps.sql, deps.site.id, log);
  const countView = (request: Request, slug: string) => {
    if (request.method !== 'GET' || /bot|crawl|spider/i.test(request.headers.get('user-agent') ?? '')) return;
    const visitor = visitorOf(request);
    const today = new Date().toISOString().slice(0, 10);
    if (today !== countedDay || counted.size > 100_000) {
      counted.clear();
      countedDay = today;
    }
    const memo = createHash('sha256').update(`${processSalt}:${today}:${slug}:${visitor}`).digest('base64url');
    if (counted.has(memo)) return;
    counted.add(memo);
    recordView(slug, visitor);
  };

  /** A person's action: CSRF + Origin checked form, signed in, rate limited; JSON for the script, else 303 back to the page. */
  const action =
    (
      run: (
        form: FormData,
        userId: string,
        params: Record<string, string>,
        request: Request,
      ) => Promise<{ outcome: ActionOutcome; back: string; state?: () => Promise<object> }>,
    ) =>
    async ({ request, params }: Ctx) => {
      const wantsJson = (request.headers.get('accept') ?? '').includes('application/json');
      const checked = await readCheckedForm(config, request);
      if ('response' in checked) return checked.response;
      const user = await currentUser(deps.sql, config, request);
      const back = field(checked.form, 'back');
      if (!user) {
        const to = back.startsWith('/listings/') ? back : '/';
        return wantsJson ? Response.json({ error: 'sign_in', sign_in: signInPath(to) }, { status: 401 }) : seeOther(signInPath(to));
      }
      const d = await limiter.consume('write', `site:${user.userId}`);
      if (!d.allowed) {
        return wantsJson
          ? Response.json({ error: 'rate_limited' }, { status: 429, headers: rateLimitHeaders(d) })
          : new Response(`Too many actions. Please wait ${d.resetSeconds} seconds.`, {
              status: 429,
              headers: { 'content-type': 'text/plain; charset=utf-8', ...rateLimitHeaders(d) },
            });
      }
      try {
        const r = await run(checked.form, String(user.userId), params, request);
        const status = r.outcome === 'ok' ? 200 : r.outcome === 'not_found' || r.outcome === 'not_live' ? 404 : r.outcome === 'already_replied' ? 409 : 403;
        if (wantsJson) return Response.json({ outcome: r.outcome, ...(r.state ? await r.state() : {}) }, { status, headers: { 'cache-control': 'no-store' } });
        if (r.outcome === 'not_found' || r.outcome === 'not_live') return errorPage(new DomainError('not_found', 'No such listing.'), request, user);
        return seeOther(r.back);
      } catch (err) {
        if (err instanceof DomainError) {
          return wantsJson ? Response.json({ error: err.code, message: err.message }, { status: 400 }) : errorPage(err, request, user);
        }
        log.error({ err }, 'site action failed');
        return wantsJson ? Response.json({ error: 'internal' }, { status: 500 }) : errorPage(err, request, user);
      }
    };

  const seeOther = (path: string) => new Response(null, { status: 303, headers: { location: `${config.siteUrl}${path}`, 'cache-control': 'no-store' } });

  const onListing = (doIt: (listingId: number, userId: string, form: FormData, request: Request) => Promise<ActionOutcome>, anchor = '') =>
    action(async (form, userId, params, request) => {
      const l = await liveListingId(deps.sql, deps.site.id, params.slug);
      const back = `/listings/${params.slug}${anchor}`;
      if (!l) return { outcome: 'not_live', back };
      const outcome = await doIt(l.id, userId, form, request);
      return { outcome, back, state: async () => viewerState(deps.sql, l.id, userId) };
    });

  // Site sessions come only from e-mail sign-in links.
  const voteSignals = (request: Request) => ({
    network: networkOf(clientAddress(request, { trustProxy: config.trustProxy })),
    uaFamily: uaFamilyOf(request.headers.get('user-agent')),
    signIn: 'email_link',
    visitor: visitorOf(request),
  });

  const none = { parse: 'none' } as const;
  const app = new Elysia({ name: 'public-pages' })
    .get('/', page(pages.home), none)
    .get('/listings/:slug', listingPage, none)
    .get('/launches', page(pages.launchesPage), none)
    .get('/launches/weeks/:week', page(pages.launchWeekPage), none)
    .get('/leaderboards', page(pages.leaderboardsIndex), none)
    .get('/leaderboards/:board', page(pages.leaderboardPage), none)
    .get('/categories', page(pages.categoriesPage), none)
    .get('/categories/:slug', page(pages.categoryPage), none)
    .get('/founders', page(pages.foundersPage), none)
    .get('/founders/:slug', page(pages.founderPage), none)
    .get('/blog', page(pages.blogPage), none)
    .get('/blog/:slug', page(pages.blogPostPage), none)
    .get('/awards', page(pages.awardsPage), none)
    .get('/search', page(pages.searchPage), none)
    .get('/compare', page(pages.comparePage), none)
    .get('/updates', page(pages.updatesPage), none)
    .get('/pricing', page(pages.pricingPage), none)
    .post(
      '/listings/:slug/vote',
      onListing((id, user, form, request) => (field(form, 'do') === 'remove' ? unvote(deps.sql, id, user) : vote(deps.sql, id, user, voteSignals(request)))),
      none,
    )
    .post(
      '/listings/:slug/follow',
      onListing((id, user, form) => (field(form, 'do') === 'remove' ? unfollow(deps.sql, id, user) : follow(deps.sql, id, user))),
      none,
    )
    .post(
      '/listings/:slug/review',
      onListing(async (id, user, form) => {
        const rating = Number(field(form, 'rating'));
        const text = field(form, 'body').trim();
        if (!Number.isInteger(rating) || rating < 1 || rating > 5) throw new DomainError('invalid_input', 'Choose a rating from 1 to 5.');
        if (text.length > 5000) throw new DomainError('invalid_input', 'A review is at most 5000 characters.');
        return saveReview(deps.sql, id, user, rating, text || null);
      }, '#reviews'),
      none,
    )
    .post(
      '/reviews/:id/flag',
      action(async (_form, userId, params) => {
        const id = /^\d{1,15}$/.test(params.id) ? Number(params.id) : 0;
        const [row] = id ? await deps.sql`select l.slug from reviews r join listings l on l.id = r.listing_id where r.id = ${id}` : [];
        const outcome = row ? await flagReview(deps.sql, id, userId) : 'not_found';
        return { outcome, back: row ? `/listings/${row.slug}#reviews` : '/' };
      }),
      none,
    )
    .get('/favicon.ico', ({ request }) => faviconResponse(request), none)
    .post(
      '/reviews/:id/reply',
      action(async (form, userId, params) => {
        const id = /^\d{1,15}$/.test(params.id) ? Number(params.id) : 0;
        const text = field(form, 'body').trim();
        if (!text) throw new DomainError('invalid_input', 'Write a reply.');
        if (text.length > 2000) throw new DomainError('invalid_input', 'A reply is at most 2000 characters.');
        const [row] = id ? await deps.sql`select l.slug from reviews r join listings l on l.id = r.listing_id where r.id = ${id}` : [];
        const outcome = row ? await replyToReview(deps.sql, id, userId, text) : 'not_found';
        return { outcome, back: row ? `/listings/${row.slug}#review-${id}` : '/' };
      }),
      none,
    )
    .get(
      '/assets/:file',
      ({ params }) => {
        const a = ASSETS[params.file];
        if (!a) return new Response('Not found', { status: 404 });
        return new Response(a.body, {
          headers: { 'content-type': a.type, 'cache-control': 'public, max-age=3600', etag: a.etag, 'x-content-type-options': 'nosniff' },
        });
      },
      none,
    );
  return app.use(seoRoutes(deps)).use(comingSoonPlugin(deps));
}
