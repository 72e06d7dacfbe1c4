// The public face of a listing queued for launch (scheduled, or awaiting its badge): its profile_url
// answers with this page instead of a 404, so every link the site and the badge make leads somewhere.
// Never ranked, never indexed; "Notify me" follows the listing and mails the person at launch.
import { Elysia } from 'elysia';
import { upcomingListing, type UpcomingListing } from '../../sql/queries/upcoming-listing.ts';
import { followUpcoming, isFollowing, unfollowUpcoming } from '../../core/community/launch-notice.ts';
import { csrfToken } from '../auth/csrf.ts';
import { currentUser } from '../auth/session.ts';
import { readCheckedForm, field, signInPath } from '../site/common.tsx';
import { rateLimitHeaders } from '../http/rate-limit.ts';
import type { PageDeps } from './data.ts';
import { frame, pageHeaders, type Viewer } from './layout.tsx';
import { CsrfField } from './components.tsx';
import { n } from './format.ts';

interface Personal {
  csrf: string;
  following: boolean;
}

function ComingSoon({ l, p }: { l: UpcomingListing; p: Personal | null }) {
  const path = `/listings/${l.slug}`;
  const week = l.launch_week;
  return (
    <article class="listing coming-soon" data-slug={l.slug}>
      <p class="meta">
        <span class="tag">Coming soon</span>
      </p>
      <h1>{l.name}</h1>
      {l.tagline ? <p class="lede">{l.tagline}</p> : null}
      <p>
        {week ? (
          <>
            Launches the week of <a href={`/launches/weeks/${week}`}>{week}</a> on this site.
          </>
        ) : (
          'Launching soon.'
        )}{' '}
        {l.status === 'awaiting_badge' ? 'Its launch week is reserved; the maker is setting it up.' : 'Its launch is scheduled.'}
      </p>
      <p class="meta">Not ranked until launch. {n(l.follows)} waiting for it.</p>
      <div class="actions">
        {p ? (
          <form method="post" action={`${path}/notify`}>
            <CsrfField token={p.csrf} />
            <input type="hidden" name="do" value={p.following ? 'remove' : 'add'} />
            <button type="submit" class={p.following ? 'on' : undefined} aria-pressed={p.following ? 'true' : 'false'}>
              {p.following ? 'You will be notified' : 'Notify me at launch'}
            </button>
          </form>
        ) : (
          <a class="button" href={signInPath(path)}>
            Notify me at launch
          </a>
        )}
        <p class="meta">
          {p?.following
            ? `We will e-mail you when ${l.name} launches. Press the button again to stop.`
            : 'Following it sends you one e-mail at launch, and its updates afterwards.'}
        </p>
      </div>
    </article>
  );
}

/**
 * The coming-soon page for `slug`, or null when no queued listing has it (the caller then answers
 * its 404). Rendered per request and never cached: it is small, and a queued listing changes state
 * without the public caches knowing which page showed it.
 */
export async function comingSoonResponse(deps: PageDeps, request: Request, slug: string, viewer: Viewer | null): Promise<Response | null> {
  const l = await upcomingListing(deps.sql, deps.site.id, slug);
  if (!l) return null;
  let p: Personal | null = null;
  const headers: Record<string, string> = { 'cache-control': 'no-store', vary: 'Cookie' };
  const user = viewer as (Viewer & { userId: string }) | null;
  if (user?.userId) {
    const { token, setCookie } = csrfToken(deps.config, request);
    if (setCookie) headers['set-cookie'] = setCookie;
    p = { csrf: token, following: await isFollowing(deps.sql, l.id, String(user.userId)) };
  }
  const body = frame(
    {
      title: `${l.name}: coming soon`,
      description: l.tagline ?? `${l.name} launches soon.`,
      path: `/listings/${l.slug}`,
      noindex: true,
      siteName: deps.site.name,
      siteUrl: deps.config.siteUrl,
    },
    <ComingSoon l={l} p={p} />,
    viewer,
  );
  return new Response(body, { status: 200, headers: pageHeaders(headers) });
}

/** POST /listings/{slug}/notify: "notify me" (do=add) or stop (do=remove) on a queued listing; 303 back. */
export function comingSoonPlugin(deps: PageDeps) {
  const { config } = deps;
  const seeOther = (path: string) => new Response(null, { status: 303, headers: { location: `${config.siteUrl}${path}`, 'cache-control': 'no-store' } });
  return new Elysia({ name: 'coming-soon' }).post(
    '/listings/:slug/notify',
    async ({ request, params }: { request: Request; params: Record<string, string> }) => {
      const checked = await readCheckedForm(config, request);
      if ('response' in checked) return checked.response;
      const back = `/listings/${encodeURIComponent(params.slug)}`;
      const user = await currentUser(deps.sql, config, request);
      if (!user) return seeOther(signInPath(back));
      const d = await deps.limiter.consume('write', `site:${user.userId}`);
      if (!d.allowed)
        return new Response(`Too many actions. Please wait ${d.resetSeconds} seconds.`, {
          status: 429,
          headers: { 'content-type': 'text/plain; charset=utf-8', ...rateLimitHeaders(d) },
        });
      const l = await upcomingListing(deps.sql, deps.site.id, params.slug);
      if (!l) return seeOther(back); // launched meanwhile (its page has the follow button) or gone
      if (field(checked.form, 'do') === 'remove') await unfollowUpcoming(deps.sql, l.id, String(user.userId));
      else await followUpcoming(deps.sql, l.id, String(user.userId));
      return seeOther(back);
    },
    { parse: 'none' },
  );
}
