import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { createGrantWithCode } from '../../core/auth/oauth-grants.ts';
import { currentUser } from '../auth/session.ts';
import { field, messagePage, readCheckedForm, redirect, requireUser, signInPath, sitePage, type SiteRequest } from '../site/common.tsx';
import { checkAuthorizationRequest, type AuthorizeCheck } from './authorize-request.ts';
import { metadataDocumentResolver } from './client-metadata-document.ts';
import { consentPage } from './consent-page.tsx';
import { issuerOf, OAUTH_PATHS } from './endpoints.ts';
import { withParams } from './redirect-uris.ts';

/** The authorization request carried through sign-in and the consent form; longer ones cannot round-trip. */
const MAX_QUERY = 4096;

/**
 * GET /oauth/authorize: checks the request (client, redirect URI, response_type=code, PKCE S256,
 * scope, resource), then sends a person who is not signed in to /sign-in?return_to=<this URL>,
 * then shows the consent page. POST /oauth/authorize: the consent form's answer. Allow makes a
 * grant and a single-use code and redirects to the app with code, state and iss (RFC 9207);
 * Deny redirects with error=access_denied. Problems with the client or redirect URI are shown on
 * an error page and never redirected.
 */
export function authorizePlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'site' | 'log' | 'limiter'>) {
  const { config, sql } = deps;
  const resolveDocument = metadataDocumentResolver(deps);
  const iss = issuerOf(config);

  const toClient = (uri: string, params: Record<string, string | null>, status: 302 | 303) =>
    new Response(null, { status, headers: { location: withParams(uri, { ...params, iss }), 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' } });

  /** The answer for a check that did not pass. */
  function refusal(check: Exclude<AuthorizeCheck, { kind: 'ok' }>, status: 302 | 303, signedInAs?: string | null): Response {
    if (check.kind === 'page') {
      return messagePage({
        status: 400,
        title: 'This sign-in request cannot be used',
        message: check.message,
        signedInAs,
        links: [{ href: '/account', label: 'Your account' }],
      });
    }
    return toClient(check.redirectUri, { error: check.error, error_description: check.description, state: check.state }, status);
  }

  const tooLong = () => messagePage({ status: 414, title: 'Request too long', message: 'This authorization request is too long to handle.' });

  return new Elysia({ name: 'oauth-authorize' })
    .get(
      OAUTH_PATHS.authorize,
      sitePage(deps, async ({ request }: SiteRequest) => {
        const url = new URL(request.url);
        const query = url.search.slice(1);
        if (query.length > MAX_QUERY) return tooLong();
        const check = await checkAuthorizationRequest(url.searchParams, { sql, config, resolveDocument });
        const user = await currentUser(sql, config, request);
        if (check.kind !== 'ok') return refusal(check, 302, user?.email);
        if (!user) return redirect(config, signInPath(`${OAUTH_PATHS.authorize}?${query}`));
        return consentPage({ config, request, siteName: deps.site.name, user, auth: check.request, query });
      }),
      { parse: 'none' },
    )

    .post(
      OAUTH_PATHS.authorize,
      sitePage(deps, async ({ request }: SiteRequest) => {
        const checked = await readCheckedForm(config, request);
        if ('response' in checked) return checked.response;
        const query = field(checked.form, 'authorization_request');
        if (query.length > MAX_QUERY) return tooLong();
        const auth = await requireUser(deps, request, `${OAUTH_PATHS.authorize}?${query}`);
        if ('response' in auth) return auth.response;
        const check = await checkAuthorizationRequest(new URLSearchParams(query), { sql, config, resolveDocument });
        if (check.kind !== 'ok') return refusal(check, 303, auth.user.email);
        const req = check.request;
        const decision = field(checked.form, 'decision');
        if (decision === 'deny')
          return toClient(req.redirectUri, { error: 'access_denied', error_description: 'The person denied access.', state: req.state }, 303);
        if (decision !== 'allow')
          return messagePage({ status: 400, title: 'Bad request', message: 'Choose "Allow access" or "Deny".', signedInAs: auth.user.email });
        const { code } = await createGrantWithCode(sql, {
          userId: auth.user.userId,
          clientId: req.client.clientId,
          scopes: req.scopes,
          resource: req.resource,
          redirectUri: req.redirectUri,
          redirectUriGiven: req.redirectUriGiven,
          codeChallenge: req.codeChallenge,
          codeTtlSeconds: config.auth.authCodeTtlSeconds,
        });
        return toClient(req.redirectUri, { code, state: req.state }, 303);
      }),
      { parse: 'none' },
    );
}
