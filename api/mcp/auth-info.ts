import type { AuthInfo } from '@modelcontextprotocol/server';
import { isScope } from '../../core/auth/scopes.ts';
import type { Principal } from '../registry/operation.ts';

/**
 * A resolved credential as the MCP SDK carries it, the way its bearer-auth example does: the edge
 * resolves the credential once (in the auth gate), hands it to the transport with the request
 * (`handler.fetch(request, { authInfo })`, `transport.handleRequest(request, { authInfo })`), and
 * a tool reads it back from `ctx.http.authInfo`. Only a valid credential gets that far (the gate
 * answers a rejected one with 401), so a request without AuthInfo is anonymous.
 */
export function authInfoOf(principal: Principal, request: Request, resource: string): AuthInfo {
  return {
    token: /^Bearer +(\S+)/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? '',
    // The credential (key:<id> or grant:<id>): what rate limits and logs know a caller by.
    clientId: principal.credentialId,
    scopes: principal.scopes,
    resource: new URL(resource),
    extra: { userId: principal.userId, email: principal.email, kind: principal.kind },
  };
}

/** The principal behind an AuthInfo made by authInfoOf; null without one. */
export function principalOf(info: AuthInfo | undefined): Principal | null {
  if (!info) return null;
  const { userId, email, kind } = info.extra ?? {};
  if (typeof userId !== 'string' || typeof email !== 'string' || (kind !== 'api_key' && kind !== 'oauth')) {
    throw new Error('AuthInfo was not made by authInfoOf');
  }
  return { userId, email, kind, credentialId: info.clientId, scopes: info.scopes.filter(isScope) };
}
