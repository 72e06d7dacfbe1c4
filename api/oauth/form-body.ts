import { readBody, TOO_LARGE } from '../http/body.ts';
import { fail, type OAuthFailure } from './responses.ts';

/** Token and revocation requests are a few short parameters; this is far above any real one. */
export const MAX_OAUTH_FORM_BYTES = 16 * 1024;

/**
 * Reads an application/x-www-form-urlencoded body (RFC 6749 section 3.2) within the size cap.
 * A parameter sent twice is an error (RFC 6749 section 3.1: parameters MUST NOT repeat).
 */
export async function readOAuthForm(request: Request): Promise<{ params: Map<string, string> } | { failure: OAuthFailure }> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(type))
    return { failure: fail('invalid_request', 'Send the parameters as application/x-www-form-urlencoded.') };
  const buf = await readBody(request, MAX_OAUTH_FORM_BYTES);
  if (buf === TOO_LARGE) return { failure: fail('invalid_request', 'The request body is too large.', 413) };
  const params = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(buf ? new TextDecoder().decode(buf) : '')) {
    if (params.has(k)) return { failure: fail('invalid_request', `The parameter ${k} was sent more than once.`) };
    if (k.includes('\u0000') || v.includes('\u0000')) return { failure: fail('invalid_request', 'Parameters must not contain the NUL character.') };
    params.set(k, v);
  }
  return { params };
}
