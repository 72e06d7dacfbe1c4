import type { Config } from '../../core/config.ts';

/**
 * Where the authorization server lives. The spec leaves the paths to us ("not shown"); these are
 * published in the authorization server metadata, which is what clients read.
 *
 *   GET  /.well-known/oauth-protected-resource/mcp      RFC 9728 metadata of the MCP server
 *   GET  /.well-known/oauth-protected-resource/api/v1   RFC 9728 metadata of the REST API
 *   GET  /.well-known/oauth-protected-resource          the same document as /mcp (see metadata.ts)
 *   GET  /.well-known/oauth-authorization-server        RFC 8414 metadata; issuer = SITE_URL
 *   GET  /oauth/authorize    authorization endpoint: checks the request, then sign-in, then consent
 *   POST /oauth/authorize    the consent form's answer (Allow access / Deny)
 *   POST /oauth/token        token endpoint (authorization_code, refresh_token)
 *   POST /oauth/register     dynamic client registration (RFC 7591)
 *   POST /oauth/revoke       token revocation (RFC 7009)
 *   GET  /account/connections, POST /account/connections/{id}/revoke   a person's connected apps
 */
export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
  connections: '/account/connections',
  protectedResource: '/.well-known/oauth-protected-resource',
  authorizationServer: '/.well-known/oauth-authorization-server',
} as const;

export const endpointUrl = (config: Config, path: keyof typeof OAUTH_PATHS) => `${config.siteUrl}${OAUTH_PATHS[path]}`;

/** The issuer identifier (RFC 8414 section 2, RFC 9207): the site URL, no trailing slash, compared as a plain string. */
export const issuerOf = (config: Config) => config.siteUrl;
