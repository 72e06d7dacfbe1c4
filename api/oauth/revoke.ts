import type { AppDeps } from '../deps.ts';
import { revokeGrant } from '../../core/auth/oauth-grants.ts';
import { findTokenRecord, revokeToken } from '../../core/auth/oauth-tokens.ts';
import { SECRET_PREFIX } from '../../core/auth/secrets.ts';
import { openEndpoint } from './open-endpoint.ts';
import { authenticateClient } from './client-auth.ts';
import { OAUTH_PATHS } from './endpoints.ts';
import { readOAuthForm } from './form-body.ts';
import { fail, oauthError, oauthJson } from './responses.ts';

/**
 * POST /oauth/revoke (RFC 7009). The client identifies itself as at the token endpoint. An access
 * token is revoked alone; a refresh token revokes its whole grant (every access and refresh token
 * issued under it), as RFC 7009 section 2.1 suggests. Unknown, expired or already revoked tokens
 * answer 200 like revoked ones (section 2.2); a token of another client is refused.
 * token_type_hint is accepted and not needed: our tokens say what they are by their prefix.
 */
export function revokePlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'limiter'>) {
  const { sql } = deps;

  return openEndpoint(deps, 'oauth-revoke', OAUTH_PATHS.revoke, handle);

  async function handle(request: Request): Promise<Response> {
    const form = await readOAuthForm(request);
    if ('failure' in form) return oauthError(form.failure);
    const token = form.params.get('token');
    if (!token) return oauthError(fail('invalid_request', 'token is missing.'));
    const who = await authenticateClient(sql, request, form.params);
    if ('failure' in who) return oauthError(who.failure);
    const done = () => oauthJson({}, 200);
    if (!token.startsWith(SECRET_PREFIX.accessToken) && !token.startsWith(SECRET_PREFIX.refreshToken)) return done();
    if (token.length > 100) return done();
    const record = await findTokenRecord(sql, token);
    if (!record) return done();
    if (record.clientId !== who.client.clientId) return oauthError(fail('invalid_request', 'This token was not issued to this client.'));
    if (record.kind === 'refresh') await revokeGrant(sql, record.grantId);
    else await revokeToken(sql, record.tokenHash);
    return done();
  }
}
