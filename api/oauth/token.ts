import type { AppDeps } from '../deps.ts';
import { transaction } from '../../sql/db.ts';
import type { OAuthClient } from '../../core/auth/oauth-clients.ts';
import { lockCode, markCodeUsed, revokeGrant } from '../../core/auth/oauth-grants.ts';
import { issueTokens, lockRefreshToken, markRefreshReplaced, type IssuedTokens } from '../../core/auth/oauth-tokens.ts';
import { isScope, SCOPES, type Scope } from '../../core/auth/scopes.ts';
import { SECRET_PREFIX } from '../../core/auth/secrets.ts';
import { openEndpoint } from './open-endpoint.ts';
import { authenticateClient } from './client-auth.ts';
import { OAUTH_PATHS } from './endpoints.ts';
import { readOAuthForm } from './form-body.ts';
import { verifyS256 } from './pkce.ts';
import { canonicalResource } from './resources.ts';
import { fail, oauthError, oauthJson, type OAuthFailure } from './responses.ts';

const tokenResponse = (t: IssuedTokens) =>
  oauthJson({
    access_token: t.accessToken,
    token_type: 'Bearer',
    expires_in: t.expiresIn,
    scope: t.scopes.join(' '),
    ...(t.refreshToken ? { refresh_token: t.refreshToken } : {}),
  });

/**
 * POST /oauth/token (OAuth 2.1 section 3.2), application/x-www-form-urlencoded.
 *
 * authorization_code: the code is single use. Any attempt to redeem it uses it up (even a failed
 * one: a stolen code gets one try); presenting it again revokes its grant and with it every token
 * issued from it (OAuth 2.1 section 4.1.3). The code_verifier must hash to the S256 challenge,
 * redirect_uri must equal the authorization request's (required when that request named one),
 * the client must be the one the code was issued to, and a `resource` must be the grant's.
 *
 * refresh_token: rotation. Each use returns a new refresh token and retires the old one; a
 * retired refresh token presented again means two parties hold the family, so the whole grant
 * is revoked (its access tokens stop working at once) and the client must ask the person again.
 * A `scope` may narrow the new access token (the refresh token keeps the original scopes,
 * RFC 6749 section 6); a `resource` must be the grant's.
 *
 * Access tokens are opaque lda_ secrets bound to the grant's resource (audience), living
 * OAUTH_ACCESS_TOKEN_TTL_SECONDS; refresh tokens live OAUTH_REFRESH_TOKEN_TTL_DAYS from their issue
 * and are issued only to clients registered for the refresh_token grant.
 */
export function tokenPlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'limiter'>) {
  const { config, sql } = deps;
  const ttl = { accessTtlSeconds: config.auth.accessTokenTtlSeconds, refreshTtlDays: config.auth.refreshTokenTtlDays };

  async function redeemCode(client: OAuthClient, p: Map<string, string>): Promise<IssuedTokens | OAuthFailure> {
    const code = p.get('code') ?? '';
    const verifier = p.get('code_verifier');
    if (!code) return fail('invalid_request', 'code is missing.');
    if (!verifier) return fail('invalid_request', 'code_verifier is missing (PKCE is required).');
    if (!code.startsWith(SECRET_PREFIX.authCode) || code.length > 100) return fail('invalid_grant', 'The authorization code is not valid.');
    const resourceParam = p.get('resource');
    return transaction(sql, async (t) => {
      const c = await lockCode(t, code);
      if (!c) return fail('invalid_grant', 'The authorization code is not valid.');
      if (c.used) {
        await revokeGrant(t, c.grantId);
        return fail('invalid_grant', 'The authorization code was already used; the tokens issued from it are revoked.');
      }
      await markCodeUsed(t, c.codeHash);
      if (c.expired) return fail('invalid_grant', 'The authorization code has expired.');
      if (c.grantRevoked) return fail('invalid_grant', 'This authorization was revoked.');
      if (c.clientId !== client.clientId) return fail('invalid_grant', 'The authorization code was issued to another client.');
      const redirectUri = p.get('redirect_uri');
      if (redirectUri === undefined ? c.redirectUriGiven : redirectUri !== c.redirectUri) {
        return fail('invalid_grant', 'redirect_uri must be the one sent in the authorization request.');
      }
      if (!verifyS256(verifier, c.codeChallenge)) return fail('invalid_grant', 'The code_verifier does not match the code_challenge.');
      if (resourceParam !== undefined && canonicalResource(config, resourceParam) !== c.resource) {
        return fail('invalid_target', 'resource must be the one the authorization was granted for.');
      }
      return issueTokens(t, {
        grantId: c.grantId,
        accessScopes: c.scopes,
        refreshScopes: client.extras.grant_types.includes('refresh_token') ? c.scopes : null,
        resource: c.resource,
        ...ttl,
      });
    });
  }

  async function refresh(client: OAuthClient, p: Map<string, string>): Promise<IssuedTokens | OAuthFailure> {
    const secret = p.get('refresh_token') ?? '';
    if (!secret) return fail('invalid_request', 'refresh_token is missing.');
    if (!client.extras.grant_types.includes('refresh_token')) return fail('unauthorized_client', 'This client did not register for the refresh_token grant.');
    if (!secret.startsWith(SECRET_PREFIX.refreshToken) || secret.length > 100) return fail('invalid_grant', 'The refresh token is not valid.');
    const scopeParam = p.get('scope');
    const resourceParam = p.get('resource');
    return transaction(sql, async (t) => {
      const r = await lockRefreshToken(t, secret);
      if (!r || r.clientId !== client.clientId) return fail('invalid_grant', 'The refresh token is not valid.');
      if (r.replaced) {
        await revokeGrant(t, r.grantId);
        return fail('invalid_grant', 'This refresh token was already used; the authorization is revoked and must be granted again.');
      }
      if (r.revoked || r.grantRevoked) return fail('invalid_grant', 'The refresh token was revoked.');
      if (r.expired) return fail('invalid_grant', 'The refresh token has expired.');
      let accessScopes: Scope[] = r.scopes;
      const asked = (scopeParam ?? '').split(' ').filter((s) => s && s !== 'offline_access');
      if (asked.length) {
        const beyond = asked.filter((s) => !isScope(s) || !r.scopes.includes(s));
        if (beyond.length) return fail('invalid_scope', `The refresh token does not cover ${beyond.join(' ').slice(0, 200)}.`);
        accessScopes = SCOPES.filter((s) => asked.includes(s));
      }
      if (resourceParam !== undefined && canonicalResource(config, resourceParam) !== r.resource) {
        return fail('invalid_target', 'resource must be the one the authorization was granted for.');
      }
      const issued = await issueTokens(t, { grantId: r.grantId, accessScopes, refreshScopes: r.scopes, resource: r.resource, ...ttl });
      await markRefreshReplaced(t, r.tokenHash, issued.refreshToken!);
      return issued;
    });
  }

  return openEndpoint(deps, 'oauth-token', OAUTH_PATHS.token, handle);

  async function handle(request: Request): Promise<Response> {
    const form = await readOAuthForm(request);
    if ('failure' in form) return oauthError(form.failure);
    const p = form.params;
    const grantType = p.get('grant_type');
    if (!grantType) return oauthError(fail('invalid_request', 'grant_type is missing.'));
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
      return oauthError(fail('unsupported_grant_type', 'Supported grant types: authorization_code, refresh_token.'));
    }
    const who = await authenticateClient(sql, request, p);
    if ('failure' in who) return oauthError(who.failure);
    const outcome = grantType === 'authorization_code' ? await redeemCode(who.client, p) : await refresh(who.client, p);
    return 'error' in outcome ? oauthError(outcome) : tokenResponse(outcome);
  }
}
