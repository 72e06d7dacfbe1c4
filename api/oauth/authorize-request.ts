import type { Config } from '../../core/config.ts';
import type { Sql } from '../../sql/db.ts';
import { findClient, type OAuthClient } from '../../core/auth/oauth-clients.ts';
import { isScope, SCOPES, type Scope } from '../../core/auth/scopes.ts';
import { looksLikeMetadataDocumentUrl, type ResolvedDocument } from './client-metadata-document.ts';
import { isS256Challenge } from './pkce.ts';
import { findRedirectUri } from './redirect-uris.ts';
import { canonicalResource, defaultResource } from './resources.ts';

/** A checked authorization request (OAuth 2.1 section 4.1.1). */
export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  /** The request named redirect_uri (else the client's only registered one is used). */
  redirectUriGiven: boolean;
  scopes: Scope[];
  resource: string;
  state: string | null;
  codeChallenge: string;
}

export type AuthorizeCheck =
  | { kind: 'ok'; request: AuthorizationRequest }
  /** The client or redirect URI cannot be trusted: show an error page, never redirect (RFC 9700 section 4.1). */
  | { kind: 'page'; message: string }
  /** A problem the client should hear about at its (verified) redirect URI. */
  | {
      kind: 'redirect';
      redirectUri: string;
      state: string | null;
      error: 'invalid_request' | 'unsupported_response_type' | 'invalid_scope' | 'invalid_target';
      description: string;
    };

export const MAX_STATE = 2048;

/**
 * Checks an authorization request (the GET's query, or the same query carried through the
 * consent form). The client and redirect URI are checked first; until both are known good every
 * problem is shown to the person, after that problems go back to the client.
 */
export async function checkAuthorizationRequest(
  params: URLSearchParams,
  deps: { sql: Sql; config: Config; resolveDocument: (clientId: string) => Promise<ResolvedDocument> },
): Promise<AuthorizeCheck> {
  const one = (name: string) => params.getAll(name);
  const clientIds = one('client_id');
  const redirects = one('redirect_uri');
  if (clientIds.length !== 1 || !clientIds[0])
    return {
      kind: 'page',
      message: clientIds.length > 1 ? 'The request names client_id more than once.' : 'The request does not name the app (client_id is missing).',
    };
  if (redirects.length > 1) return { kind: 'page', message: 'The request names redirect_uri more than once.' };
  const clientId = clientIds[0];

  let client: OAuthClient | null;
  if (looksLikeMetadataDocumentUrl(clientId)) {
    const resolved = await deps.resolveDocument(clientId);
    if ('error' in resolved) return { kind: 'page', message: resolved.error };
    client = resolved.client;
  } else {
    client = await findClient(deps.sql, clientId);
    if (client && client.kind !== 'registered') client = null;
  }
  if (!client) return { kind: 'page', message: 'This app is not registered here (unknown client_id). It may need to register again.' };

  let redirectUri: string;
  const redirectUriGiven = redirects.length === 1;
  if (redirectUriGiven) {
    if (!findRedirectUri(client.redirectUris, redirects[0]))
      return { kind: 'page', message: 'The redirect URI in the request is not one the app registered, so we will not send you there.' };
    redirectUri = redirects[0];
  } else if (client.redirectUris.length === 1) {
    redirectUri = client.redirectUris[0];
  } else {
    return { kind: 'page', message: 'The request does not say where to return (redirect_uri is missing) and the app registered several redirect URIs.' };
  }

  const states = one('state');
  const state = states.length === 1 ? states[0] : null;
  const refuse = (error: Extract<AuthorizeCheck, { kind: 'redirect' }>['error'], description: string): AuthorizeCheck => ({
    kind: 'redirect',
    redirectUri,
    state,
    error,
    description,
  });

  for (const name of ['response_type', 'state', 'scope', 'code_challenge', 'code_challenge_method']) {
    if (one(name).length > 1) return refuse('invalid_request', `The parameter ${name} was sent more than once.`);
  }
  if (state !== null && state.length > MAX_STATE) return refuse('invalid_request', `state can be at most ${MAX_STATE} characters.`);
  const responseType = params.get('response_type');
  if (!responseType) return refuse('invalid_request', 'response_type is missing; it must be code.');
  if (responseType !== 'code') return refuse('unsupported_response_type', 'Only response_type=code is supported.');

  const challenge = params.get('code_challenge');
  const method = params.get('code_challenge_method');
  if (!challenge) return refuse('invalid_request', 'PKCE is required: send code_challenge and code_challenge_method=S256.');
  if (method !== 'S256') return refuse('invalid_request', 'code_challenge_method must be S256 (plain is not accepted).');
  if (!isS256Challenge(challenge)) return refuse('invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the code verifier.');

  // offline_access (OpenID Connect) is what some clients add to get a refresh token; it is not a
  // scope of ours and is ignored: refresh tokens go to clients registered for the refresh_token grant.
  const asked = (params.get('scope') ?? '').split(' ').filter((s) => s && s !== 'offline_access');
  const unknown = asked.filter((s) => !isScope(s));
  if (unknown.length) return refuse('invalid_scope', `Unknown scope: ${unknown.join(' ').slice(0, 200)}. Scopes: ${SCOPES.join(' ')}.`);
  const allowed: readonly Scope[] = client.extras.scope ?? SCOPES;
  const outside = asked.filter((s) => !allowed.includes(s as Scope));
  if (outside.length) return refuse('invalid_scope', `This app registered for ${allowed.join(' ')} only, not ${outside.join(' ')}.`);
  // No scope asked: what the app registered for, or all of ours (the person sees them all before allowing).
  const scopes: Scope[] = asked.length ? SCOPES.filter((s) => asked.includes(s)) : [...allowed];

  const resources = one('resource');
  if (resources.length > 1) return refuse('invalid_target', 'Ask for one resource per authorization: tokens are bound to a single resource.');
  const resource = resources.length ? canonicalResource(deps.config, resources[0]) : defaultResource(deps.config);
  if (!resource) return refuse('invalid_target', `Unknown resource; ours are ${deps.config.siteUrl}/mcp and ${deps.config.siteUrl}/api/v1.`);

  return { kind: 'ok', request: { client, redirectUri, redirectUriGiven, scopes, resource, state, codeChallenge: challenge } };
}
