import type { AppDeps } from '../deps.ts';
import { insertRegisteredClient, type OAuthClient } from '../../core/auth/oauth-clients.ts';
import { hashSecret, newSecret, SECRET_PREFIX } from '../../core/auth/secrets.ts';
import { openEndpoint } from './open-endpoint.ts';
import { validateClientMetadata } from './client-metadata.ts';
import { OAUTH_PATHS } from './endpoints.ts';
import { readCappedText } from '../http/body.ts';
import { fail, oauthError, oauthJson } from './responses.ts';
import { clientAddress } from '../http/rate-limit.ts';
import { errorHeaders, problemFromError, problemResponse } from '../http/problem.ts';
import { DomainError } from '../../core/errors/index.ts';

/** Registration metadata is a few URIs and names; 16 KB is far above any real request. */
export const MAX_REGISTRATION_BYTES = 16 * 1024;

/** RFC 7591 section 3.2.1: the client's information, the metadata as we registered it. */
export function registrationResponse(client: OAuthClient, secret: string | null) {
  return {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: client.authMethod,
    grant_types: client.extras.grant_types,
    response_types: client.extras.response_types,
    ...(client.clientName ? { client_name: client.clientName } : {}),
    ...(client.clientUri ? { client_uri: client.clientUri } : {}),
    ...(client.extras.scope ? { scope: client.extras.scope.join(' ') } : {}),
    ...(client.extras.software_id ? { software_id: client.extras.software_id } : {}),
    ...(client.extras.software_version ? { software_version: client.extras.software_version } : {}),
  };
}

/**
 * POST /oauth/register: dynamic client registration (RFC 7591), open to anyone (as MCP clients
 * need), limited by the anonymous rate budget of the caller's address and by
 * OAUTH_REGISTRATIONS_PER_HOUR registrations an hour per address (counted in SQL). Public clients
 * (token_endpoint_auth_method none, the default) get a client_id only; client_secret_post and
 * client_secret_basic clients also get a client_secret, shown once, stored as a hash, not expiring.
 * Registration alone grants nothing: every authorization still needs a person's consent.
 */
export function registerPlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'limiter'>) {
  const { sql } = deps;

  return openEndpoint(deps, 'oauth-register', OAUTH_PATHS.register, handle);

  async function handle(request: Request): Promise<Response> {
    if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) {
      return oauthError(fail('invalid_client_metadata', 'Send the client metadata as application/json.'));
    }
    const text = await readCappedText(request, MAX_REGISTRATION_BYTES);
    if (text === null) return oauthError(fail('invalid_client_metadata', `The client metadata is larger than ${MAX_REGISTRATION_BYTES} bytes.`, 413));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return oauthError(fail('invalid_client_metadata', 'The body is not valid JSON.'));
    }
    const checked = validateClientMetadata(body, 'registration');
    if ('error' in checked) return oauthError(fail(checked.error, checked.description));
    const secret = checked.fields.authMethod === 'none' ? null : newSecret(SECRET_PREFIX.clientSecret);
    const address = clientAddress(request, { trustProxy: deps.config.trustProxy });
    try {
      const client = await insertRegisteredClient(
        sql,
        { ...checked.fields, clientSecretHash: secret ? hashSecret(secret) : null },
        { address, perHour: deps.config.auth.registrationsPerHour },
      );
      return oauthJson(registrationResponse(client, secret), 201);
    } catch (e) {
      if (e instanceof DomainError) return problemResponse(request, problemFromError(deps.config.siteUrl, e), errorHeaders(e));
      throw e;
    }
  }
}
