// Which redirect URIs a client may register, and how a presented one is matched.
//
// Allowed (MCP authorization spec "Communication Security", OAuth 2.1, RFC 8252):
//  - https URIs on any host;
//  - http URIs only on loopback: localhost, 127.0.0.1, [::1] (apps running on the person's machine);
//  - private-use schemes of native apps in reverse-domain form (RFC 8252 section 7.1), such as
//    com.example.app:/callback; a scheme without a dot (javascript:, data:, file:, myapp:) is refused.
// Never: fragments, user names or passwords, longer than 2048 characters.
//
// Matching is exact string comparison against the registered list (no prefixes, no
// normalisation), with the one exception OAuth 2.1 (section 8.4.2, RFC 8252 section 7.3) demands:
// for http://127.0.0.1 and http://[::1] redirect URIs the port may differ, because native apps
// listen on an ephemeral port. Everything else (host, path, query) must still be identical.

export const MAX_REDIRECT_URI = 2048;
export const MAX_REDIRECT_URIS = 20;

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why a redirect URI may not be registered, or null when it may. */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length === 0 || uri.length > MAX_REDIRECT_URI) return `must be 1 to ${MAX_REDIRECT_URI} characters`;
  if (/[\u0000-\u0020\u007f]/.test(uri)) return 'must not contain spaces or control characters';
  if (uri.includes('#')) return 'must not contain a fragment';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  if (url.username || url.password) return 'must not contain a user name or password';
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return url.hostname ? null : 'must name a host';
  if (scheme === 'http') return LOOPBACK_NAMES.has(url.hostname) ? null : 'must use https (plain http is allowed only for localhost, 127.0.0.1 and [::1])';
  if (!scheme.includes('.')) return `uses the scheme "${scheme}:"; use https, loopback http, or a reverse-domain private-use scheme such as com.example.app:`;
  return null;
}

const LOOPBACK_IP_URI = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::\d{1,5})?([/?].*)?$/;

/** Whether a presented redirect URI equals a registered one (see the rules above). */
export function redirectUriMatches(registered: string, presented: string): boolean {
  if (registered === presented) return true;
  const r = LOOPBACK_IP_URI.exec(registered);
  const p = LOOPBACK_IP_URI.exec(presented);
  return r !== null && p !== null && r[1] === p[1] && (r[2] ?? '') === (p[2] ?? '');
}

export const findRedirectUri = (registered: string[], presented: string) => registered.some((r) => redirectUriMatches(r, presented));

/** Adds response parameters to a redirect URI, keeping its own query (RFC 6749 section 4.1.2). */
export function withParams(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) url.searchParams.append(k, v);
  return url.href;
}

/**
 * The CSP form-action source that lets the consent form's answer redirect to this URI: browsers
 * apply form-action to the redirects that follow a form submission.
 */
export function formActionSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}
