import type { Config } from '../../core/config.ts';

/** The two protected resources: the MCP server and the REST API. Tokens are bound to one of them. */
export const resourcesOf = (config: Config) => ({ mcp: `${config.siteUrl}/mcp`, rest: `${config.siteUrl}/api/v1` });

/** RFC 9728 section 3: metadata of resource https://host/path lives at /.well-known/oauth-protected-resource/path. */
export const resourceMetadataUrl = (config: Config, resource: string) => `${config.siteUrl}/.well-known/oauth-protected-resource${new URL(resource).pathname}`;

/**
 * WWW-Authenticate for a 401 or 403 (RFC 6750 section 3, RFC 9728 section 5.1): names the
 * resource metadata so an MCP client can discover the authorization server.
 */
export function bearerChallenge(
  config: Config,
  resource: string,
  opts: { error?: 'invalid_token' | 'insufficient_scope'; scope?: string; description?: string } = {},
): string {
  const parts = [`resource_metadata="${resourceMetadataUrl(config, resource)}"`];
  if (opts.error) parts.push(`error="${opts.error}"`);
  if (opts.scope) parts.push(`scope="${opts.scope}"`);
  if (opts.description) parts.push(`error_description="${opts.description.replace(/["\\]/g, '')}"`);
  return `Bearer ${parts.join(', ')}`;
}
