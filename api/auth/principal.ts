import { findApiKey } from '../../core/auth/api-keys.ts';
import { findAccessToken } from '../../core/auth/oauth-tokens.ts';
import { SECRET_PREFIX } from '../../core/auth/secrets.ts';
import type { Sql } from '../../sql/db.ts';
import type { Principal } from '../registry/operation.ts';

export type Resolved = { principal: Principal | null; rejected: boolean };

const NONE: Resolved = { principal: null, rejected: false };
const REJECTED: Resolved = { principal: null, rejected: true };

/**
 * The caller behind `Authorization: Bearer <secret>`. API keys work everywhere; an OAuth access
 * token works only at the resource it was issued for (RFC 8707 audience), so a token minted for
 * /mcp is refused on /api/v1 and the other way round. Anything else sent as a credential is
 * rejected rather than ignored, so a mistyped key never silently reads as anonymous.
 */
export async function resolvePrincipal(sql: Sql, authorization: string | null, resource: string): Promise<Resolved> {
  if (!authorization) return NONE;
  const m = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(authorization);
  if (!m || m[1].length > 200) return REJECTED;
  const secret = m[1];
  if (secret.startsWith(SECRET_PREFIX.apiKey)) {
    const key = await findApiKey(sql, secret);
    if (!key) return REJECTED;
    return { principal: { userId: key.userId, email: key.email, kind: 'api_key', credentialId: `key:${key.id}`, scopes: key.scopes }, rejected: false };
  }
  if (secret.startsWith(SECRET_PREFIX.accessToken)) {
    const token = await findAccessToken(sql, secret);
    if (!token || token.resource !== resource) return REJECTED;
    return {
      principal: { userId: token.userId, email: token.email, kind: 'oauth', credentialId: `grant:${token.grantId}`, scopes: token.scopes },
      rejected: false,
    };
  }
  return REJECTED;
}
