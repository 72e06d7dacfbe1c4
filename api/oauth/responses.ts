/**
 * JSON answers of the token, registration and revocation endpoints (RFC 6749 section 5, RFC 7591
 * section 3.2, RFC 7009 section 2.2): never cached. These endpoints and the metadata documents
 * are open to browser-based clients on any origin (CORS with `*`): none of them reads cookies or
 * other ambient credentials, a request proves itself by its code, PKCE verifier, refresh token or
 * client secret, so a foreign origin gains nothing it could not do with curl.
 */
export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, MCP-Protocol-Version',
  'access-control-max-age': '86400',
};

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

export function oauthJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...NO_STORE, ...CORS_HEADERS, ...headers } });
}

/** RFC 6749 section 5.2 error codes we answer with (plus RFC 7591's and RFC 8707's). */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'unsupported_token_type';

export interface OAuthFailure {
  error: OAuthErrorCode;
  description: string;
  status?: number;
  headers?: Record<string, string>;
}

export const fail = (error: OAuthErrorCode, description: string, status = 400, headers?: Record<string, string>): OAuthFailure => ({
  error,
  description,
  status,
  headers,
});

export function oauthError(f: OAuthFailure): Response {
  return oauthJson({ error: f.error, error_description: f.description }, f.status ?? 400, f.headers);
}

/** CORS preflight answer. */
export const preflight = () => new Response(null, { status: 204, headers: CORS_HEADERS });

/** Adds headers (e.g. the RateLimit ones) to a response made elsewhere. */
export function withHeaders(res: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  return res;
}
