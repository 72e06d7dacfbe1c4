import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { transaction } from '../../sql/db.ts';
import { consumeLoginLink, createLoginLink, LOGIN_LINK_INTERVAL_SECONDS, peekLoginLink, type LoginLinkState } from '../../core/auth/login-links.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { enqueueMail } from '../../core/mail/outbox.ts';
import { currentUser, signIn, signOut } from '../auth/session.ts';
import { page } from './frame.tsx';
import { csrfField, field, messagePage, readCheckedForm, redirect, signInPath, sitePage, type SiteRequest } from './common.tsx';
import { safeReturnTo } from './return-to.ts';
import { addressKey, clientAddress, rateLimitHeaders } from '../http/rate-limit.ts';
import { signInMail } from './sign-in-mail.tsx';
import { isEmail } from '../../core/validation/urls.ts';

// The one e-mail rule of the service (core/validation/urls.ts), as update_draft and invites use it.
export const isEmailAddress = isEmail;

/**
 * GET/POST /sign-in, GET/POST /sign-in/verify and POST /sign-out. Signing in takes two steps on
 * purpose: opening the mailed link shows a button, and only the button's POST uses the link, so a
 * mail scanner that prefetches links cannot use it up or sign anyone in.
 */
export function signInPlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'site' | 'log' | 'limiter'>) {
  const { config, sql } = deps;

  function signInForm(request: Request, opts: { returnTo: string; email?: string; error?: string; status?: number; signedInAs?: string | null }): Response {
    const csrf = csrfField(config, request);
    return page({
      title: 'Sign in',
      status: opts.status,
      signedInAs: opts.signedInAs,
      headers: csrf.headers,
      body: (
        <>
          <h1>Sign in</h1>
          {opts.signedInAs && (
            <p class="notice">
              You are signed in as {opts.signedInAs}. <a href={opts.returnTo}>Continue</a>, or sign in with another address below.
            </p>
          )}
          <p>We will e-mail you a link that signs you in. No password needed; a new address gets a new account.</p>
          {opts.error && (
            <p class="error" role="alert">
              {opts.error}
            </p>
          )}
          <form method="post" action="/sign-in">
            {csrf.field}
            <input type="hidden" name="return_to" value={opts.returnTo} />
            <label for="email">E-mail address</label>
            <input type="email" id="email" name="email" required maxLength={254} autocomplete="email" value={opts.email ?? ''} />
            <button type="submit">E-mail me a sign-in link</button>
          </form>
        </>
      ),
    });
  }

  /** The page for a link that cannot be used (any more). */
  function unusableLink(link: Exclude<LoginLinkState, { state: 'valid' }>): Response {
    const again = { href: signInPath(safeReturnTo(link.state === 'unknown' ? null : link.returnTo, config.siteUrl)), label: 'Request a new sign-in link' };
    if (link.state === 'used')
      return messagePage({ status: 410, title: 'Link already used', message: 'This sign-in link was already used. Each link works once.', links: [again] });
    if (link.state === 'expired')
      return messagePage({
        status: 410,
        title: 'Link expired',
        message: `This sign-in link has expired (links last ${config.auth.loginLinkTtlMinutes} minutes).`,
        links: [again],
      });
    return messagePage({
      status: 404,
      title: 'Link not valid',
      message: 'This sign-in link is not valid. Check that the whole link was copied, or request a new one.',
      links: [again],
    });
  }

  return new Elysia({ name: 'site-sign-in' })
    .get(
      '/sign-in',
      sitePage(deps, async ({ request }: SiteRequest) => {
        const returnTo = safeReturnTo(new URL(request.url).searchParams.get('return_to'), config.siteUrl);
        const user = await currentUser(sql, config, request);
        return signInForm(request, { returnTo, signedInAs: user?.email });
      }),
      { parse: 'none' },
    )

    .post(
      '/sign-in',
      sitePage(deps, async ({ request }: SiteRequest) => {
        // Each request may send a mail: it spends the client address's write budget.
        const d = await deps.limiter.consume('write', addressKey(clientAddress(request, { trustProxy: config.trustProxy })));
        if (!d.allowed) {
          return messagePage({
            status: 429,
            title: 'Too many requests',
            message: `Please wait ${d.resetSeconds} seconds and try again.`,
            headers: rateLimitHeaders(d),
          });
        }
        const checked = await readCheckedForm(config, request);
        if ('response' in checked) return checked.response;
        const { form } = checked;
        const email = field(form, 'email').trim();
        const returnTo = safeReturnTo(field(form, 'return_to'), config.siteUrl);
        if (!isEmailAddress(email)) {
          const user = await currentUser(sql, config, request);
          return signInForm(request, {
            returnTo,
            email: email.slice(0, 254),
            status: 400,
            signedInAs: user?.email,
            error: 'Enter a valid e-mail address, like name@example.com.',
          });
        }
        // The link and its mail commit together. A repeat within the interval sends nothing new; the
        // answer is the same either way, and the same whether or not the address has an account.
        await transaction(sql, async (t) => {
          const link = await createLoginLink(t, { email, returnTo, ttlMinutes: config.auth.loginLinkTtlMinutes });
          if (!link) return;
          const url = `${config.siteUrl}/sign-in/verify?token=${encodeURIComponent(link.token)}`;
          await enqueueMail(t, signInMail({ to: email, link: url, siteName: deps.site.name, ttlMinutes: config.auth.loginLinkTtlMinutes }));
        });
        return messagePage({
          status: 200,
          title: 'Check your inbox',
          message: (
            <>
              We sent a sign-in link to <strong>{email}</strong>. Open it on any device to sign in; it works once and expires in{' '}
              {config.auth.loginLinkTtlMinutes} minutes. Asking again within {LOGIN_LINK_INTERVAL_SECONDS} seconds sends no second mail.
            </>
          ),
          links: [{ href: signInPath(returnTo), label: 'Use another address or send a new link' }],
        });
      }),
      { parse: 'none' },
    )

    .get(
      '/sign-in/verify',
      sitePage(deps, async ({ request }: SiteRequest) => {
        const token = new URL(request.url).searchParams.get('token') ?? '';
        const link = await peekLoginLink(sql, token);
        if (link.state !== 'valid') return unusableLink(link);
        const csrf = csrfField(config, request);
        return page({
          title: 'Sign in',
          headers: csrf.headers,
          body: (
            <>
              <h1>Sign in</h1>
              <p>
                Sign in as <strong>{link.email}</strong>?
              </p>
              <form method="post" action="/sign-in/verify">
                {csrf.field}
                <input type="hidden" name="token" value={token} />
                <button type="submit">Sign in</button>
              </form>
            </>
          ),
        });
      }),
      { parse: 'none' },
    )

    .post(
      '/sign-in/verify',
      sitePage(deps, async ({ request }: SiteRequest) => {
        const checked = await readCheckedForm(config, request);
        if ('response' in checked) return checked.response;
        const token = field(checked.form, 'token');
        // Using the link, making the account and starting the session commit together or not at all.
        const outcome = await transaction(sql, async (t) => {
          const link = await consumeLoginLink(t, token);
          if (link.state !== 'valid') return { ok: false as const, link };
          const user = await findOrCreateUser(t, link.email);
          // A session already in this browser (perhaps another account's) ends: never two at once.
          await signOut(t, config, request);
          return { ok: true as const, returnTo: link.returnTo, cookie: await signIn(t, config, user.id) };
        });
        if (!outcome.ok) return unusableLink(outcome.link);
        return redirect(config, safeReturnTo(outcome.returnTo, config.siteUrl), [['set-cookie', outcome.cookie]]);
      }),
      { parse: 'none' },
    )

    .post(
      '/sign-out',
      sitePage(deps, async ({ request }: SiteRequest) => {
        const checked = await readCheckedForm(config, request);
        if ('response' in checked) return checked.response;
        const cleared = await signOut(sql, config, request);
        return messagePage({
          status: 200,
          title: 'Signed out',
          message: 'You are signed out on this browser.',
          links: [{ href: '/sign-in', label: 'Sign in again' }],
          headers: { 'set-cookie': cleared },
        });
      }),
      { parse: 'none' },
    );
}
