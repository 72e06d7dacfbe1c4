// The page an update mail's unsubscribe link opens: no sign-in needed (the link is the proof); it
// shows a button, and only the button's POST stops the mail, so mail scanners change nothing.
import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { csrfToken } from '../auth/csrf.ts';
import { page } from './frame.tsx';
import { readCheckedForm, sitePage } from './common.tsx';
import { unsubscribe, unsubscribeTarget, type UnsubscribeTarget } from '../../core/listings/updates.ts';

type Deps = Pick<AppDeps, 'sql' | 'config' | 'site'>;

const notValid = () =>
  page({
    title: 'Link not valid',
    status: 404,
    body: (
      <>
        <h1>Link not valid</h1>
        <p>This unsubscribe link is not valid.</p>
      </>
    ),
  });
const done = (t: UnsubscribeTarget) =>
  page({
    title: 'Unsubscribed',
    body: (
      <>
        <h1>Unsubscribed</h1>
        <p class="notice">
          {t.email} gets no more update mail about {t.listing}.
        </p>
      </>
    ),
  });

export function unsubscribePage(deps: Deps) {
  const { sql, config } = deps;
  return {
    async show(request: Request, secret: string): Promise<Response> {
      const t = await unsubscribeTarget(sql, secret);
      if (!t) return notValid();
      if (t.done) return done(t);
      const csrf = csrfToken(config, request);
      return page({
        title: `Stop update mail about ${t.listing}`,
        headers: csrf.setCookie ? { 'set-cookie': csrf.setCookie } : {},
        body: (
          <>
            <h1>Stop update mail about {t.listing}</h1>
            <p>
              {t.email} gets an e-mail when {t.listing} posts an update.
            </p>
            <form method="post" action={`/unsubscribe/${encodeURIComponent(secret)}`}>
              <input type="hidden" name="csrf" value={csrf.token} />
              <button type="submit">Unsubscribe</button>
            </form>
          </>
        ),
      });
    },
    async confirm(request: Request, secret: string): Promise<Response> {
      // Size cap, NUL and invalid Unicode, CSRF: the checks every form of the site passes.
      const read = await readCheckedForm(config, request);
      if ('response' in read) return read.response;
      const t = await unsubscribe(sql, secret);
      return t ? done(t) : notValid();
    },
  };
}

/** GET and POST /unsubscribe/{secret}: works without signing in; the POST stops update mail. */
export function unsubscribePagesPlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'site' | 'log' | 'limiter'>) {
  const pages = unsubscribePage(deps);
  return new Elysia({ name: 'site-unsubscribe' })
    .get(
      '/unsubscribe/:secret',
      sitePage(deps, ({ request, params }) => pages.show(request, params.secret)),
    )
    .post(
      '/unsubscribe/:secret',
      sitePage(deps, ({ request, params }) => pages.confirm(request, params.secret)),
      { parse: 'none' },
    );
}
