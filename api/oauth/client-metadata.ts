// Validation of client metadata, shared by dynamic client registration (RFC 7591) and client ID
// metadata documents. The shape is checked with the MCP SDK's own OAuthClientMetadataSchema (zod,
// from @modelcontextprotocol/core, the schema package @modelcontextprotocol/server is built on),
// then our rules are applied on top.
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/core';
import type { ClientExtras, ClientFields, TokenEndpointAuthMethod } from '../../core/auth/oauth-clients.ts';
import { isScope, SCOPES, type Scope } from '../../core/auth/scopes.ts';
import { MAX_REDIRECT_URIS, redirectUriProblem } from './redirect-uris.ts';

export const MAX_CLIENT_NAME = 200;
export const MAX_CLIENT_URI = 2048;

/** Grant types we support; the RFC 7591 default when a client names none is authorization_code alone. */
const GRANT_TYPES = ['authorization_code', 'refresh_token'];

export type MetadataError = { error: 'invalid_redirect_uri' | 'invalid_client_metadata'; description: string };

const bad = (description: string): MetadataError => ({ error: 'invalid_client_metadata', description });

/** A display string: trimmed, bounded, no control characters. */
function displayText(value: string | undefined, what: string): { value: string | null } | MetadataError {
  if (value === undefined) return { value: null };
  const trimmed = value.trim();
  if (/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(trimmed)) return bad(`${what} must not contain control or bidirectional-override characters.`);
  if ([...trimmed].length > MAX_CLIENT_NAME) return bad(`${what} can be at most ${MAX_CLIENT_NAME} characters.`);
  return { value: trimmed || null };
}

/**
 * Checks client metadata. `registration` (RFC 7591): token_endpoint_auth_method may be none
 * (default), client_secret_post or client_secret_basic, client_name is optional. `document`
 * (client ID metadata document): only public clients (no secret can be shared with a document),
 * client_name is required (MCP authorization spec).
 */
export function validateClientMetadata(raw: unknown, mode: 'registration' | 'document'): { fields: ClientFields } | MetadataError {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return bad('The client metadata must be a JSON object.');
  const parsed = OAuthClientMetadataSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'metadata';
    const error = where.startsWith('redirect_uris') ? 'invalid_redirect_uri' : 'invalid_client_metadata';
    return { error, description: `${where}: ${issue?.message ?? 'invalid'}` };
  }
  const m = parsed.data;

  const uris = m.redirect_uris;
  if (uris.length === 0 || uris.length > MAX_REDIRECT_URIS)
    return { error: 'invalid_redirect_uri', description: `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs.` };
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return { error: 'invalid_redirect_uri', description: `The redirect URI ${uri.slice(0, 200)} ${problem}.` };
  }

  const method = (m.token_endpoint_auth_method ?? 'none') as TokenEndpointAuthMethod;
  const methods: string[] = mode === 'registration' ? ['none', 'client_secret_post', 'client_secret_basic'] : ['none'];
  if (!methods.includes(method)) {
    return bad(
      mode === 'registration'
        ? `token_endpoint_auth_method must be one of ${methods.join(', ')}.`
        : 'A client ID metadata document must describe a public client: token_endpoint_auth_method none (or absent).',
    );
  }
  if (mode === 'document') {
    const doc = raw as Record<string, unknown>;
    if ('client_secret' in doc || 'client_secret_expires_at' in doc) return bad('A client ID metadata document must not contain a client secret.');
  }

  const grantTypes = m.grant_types ?? ['authorization_code'];
  const unknownGrant = grantTypes.find((g) => !GRANT_TYPES.includes(g));
  if (unknownGrant) return bad(`grant_types: ${unknownGrant.slice(0, 100)} is not supported (only ${GRANT_TYPES.join(', ')}).`);
  if (!grantTypes.includes('authorization_code')) return bad('grant_types must include authorization_code.');
  const responseTypes = m.response_types ?? ['code'];
  if (responseTypes.some((r) => r !== 'code')) return bad('response_types: only code is supported.');

  const name = displayText(m.client_name, 'client_name');
  if ('error' in name) return name;
  if (mode === 'document' && !name.value) return bad('A client ID metadata document must include client_name.');

  let clientUri: string | null = null;
  if (m.client_uri !== undefined) {
    let url: URL;
    try {
      url = new URL(m.client_uri);
    } catch {
      return bad('client_uri is not a URL.');
    }
    if (url.href.length > MAX_CLIENT_URI || (url.protocol !== 'https:' && url.protocol !== 'http:'))
      return bad('client_uri must be an http(s) URL of at most 2048 characters.');
    clientUri = url.href;
  }

  // Scopes the client means to use: ours are kept, others ignored (a generic client may list
  // scopes of other servers); none of ours means "any of ours". Unknown scopes are refused only
  // when they are asked for in an authorization request.
  const listed = (m.scope ?? '').split(' ').filter(isScope);
  const scope: Scope[] | null = listed.length ? SCOPES.filter((s) => listed.includes(s)) : null;

  const extras: ClientExtras = {
    scope,
    grant_types: [...new Set(grantTypes)],
    response_types: ['code'],
    ...(m.software_id ? { software_id: m.software_id.slice(0, 200) } : {}),
    ...(m.software_version ? { software_version: m.software_version.slice(0, 100) } : {}),
  };
  return { fields: { clientName: name.value, clientUri, redirectUris: [...new Set(uris)], authMethod: method, extras } };
}
