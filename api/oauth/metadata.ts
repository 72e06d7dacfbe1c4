import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import type { Config } from '../../core/config.ts';
import { SCOPES } from '../../core/auth/scopes.ts';
import { resourcesOf } from '../auth/challenge.ts';
import type { Site } from '../registry/operation.ts';
import { endpointUrl, issuerOf, OAUTH_PATHS } from './endpoints.ts';
import { CORS_HEADERS, preflight } from './responses.ts';

const CLIENT_AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'];

/** RFC 9728 protected resource metadata of one of our two resources. */
export function protectedResourceMetadata(config: Config, site: Site, which: 'mcp' | 'rest') {
  return {
    resource: resourcesOf(config)[which],
    authorization_servers: [issuerOf(config)],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: which === 'mcp' ? `${site.name} MCP server` : `${site.name} REST API`,
    resource_documentation: `${config.siteUrl}/docs`,
  };
}

/**
 * RFC 8414 authorization server metadata. We are not an OpenID provider (no ID tokens, no
 * userinfo), so there is no /.well-known/openid-configuration: the MCP SDK tries RFC 8414 first
 * and only falls back to OpenID discovery when this document is missing.
 */
export function authorizationServerMetadata(config: Config) {
  return {
    issuer: issuerOf(config),
    authorization_endpoint: endpointUrl(config, 'authorize'),
    token_endpoint: endpointUrl(config, 'token'),
    registration_endpoint: endpointUrl(config, 'register'),
    revocation_endpoint: endpointUrl(config, 'revoke'),
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    authorization_response_iss_parameter_supported: true,
    // The MCP authorization spec's name for client ID metadata document support.
    client_id_metadata_document_supported: true,
    service_documentation: `${config.siteUrl}/docs`,
  };
}

const metadataResponse = (doc: unknown) =>
  new Response(JSON.stringify(doc), {
    headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=300', ...CORS_HEADERS },
  });

/**
 * The metadata documents. /.well-known/oauth-protected-resource (no path) answers with the MCP
 * server's document: it is the fallback MCP clients probe when they have no resource_metadata
 * URL, and MCP is who uses OAuth here; REST clients are pointed at the /api/v1 document by the
 * WWW-Authenticate header of every 401.
 */
export function metadataPlugin(deps: Pick<AppDeps, 'config' | 'site'>) {
  const { config, site } = deps;
  const mcp = protectedResourceMetadata(config, site, 'mcp');
  const rest = protectedResourceMetadata(config, site, 'rest');
  const as = authorizationServerMetadata(config);
  const docs: [string, unknown][] = [
    [`${OAUTH_PATHS.protectedResource}/mcp`, mcp],
    [`${OAUTH_PATHS.protectedResource}/api/v1`, rest],
    [OAUTH_PATHS.protectedResource, mcp],
    [OAUTH_PATHS.authorizationServer, as],
  ];
  // A loop of routes: the instance is built in place, so its type names no route (none is typed here).
  const plugin = new Elysia({ name: 'oauth-metadata' });
  for (const [path, doc] of docs) plugin.get(path, () => metadataResponse(doc)).options(path, preflight);
  return plugin;
}
