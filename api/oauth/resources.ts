import type { Config } from '../../core/config.ts';
import { resourcesOf } from '../auth/challenge.ts';

/**
 * RFC 8707 resource indicators. We protect two resources: the MCP server ({site}/mcp) and the
 * REST API ({site}/api/v1). A token is bound to exactly one (its audience). An authorization
 * request without `resource` gets the MCP server, which is who asks for OAuth.
 *
 * Comparison follows the MCP spec's canonical URI rules: scheme and host are case-insensitive, a
 * default port and one trailing slash are ignored; a fragment, query or user info is invalid.
 */
export function canonicalResource(config: Config, raw: string): string | null {
  if (raw.length === 0 || raw.length > 2048 || raw.includes('#')) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.search || url.username || url.password) return null;
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : '';
  const candidate = `${url.origin}${path}`;
  return Object.values(resourcesOf(config)).find((r) => r === candidate) ?? null;
}

export const defaultResource = (config: Config) => resourcesOf(config).mcp;

export const resourceLabel = (config: Config, resource: string) => (resource === resourcesOf(config).rest ? 'the REST API' : 'the MCP server (AI agents)');
