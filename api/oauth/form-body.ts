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
  if (Number(request.headers.get('content-length') ?? '0') > MAX_OAUTH_FORM_BYTES)
    return { failure: fail('invalid_request', 'The request body is too large.', 413) };
  const buf = await request.arrayBuffer();
  if (buf.byteLength > MAX_OAUTH_FORM_BYTES) return { failure: fail('invalid_request', 'The request body is too large.', 413) };
  const params = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(new TextDecoder().decode(buf))) {
    if (params.has(k)) return { failure: fail('invalid_request', `The parameter ${k} was sent more than once.`) };
    if (k.includes('\u0000') || v.includes('\u0000')) return { failure: fail('invalid_request', 'Parameters must not contain the NUL character.') };
    params.set(k, v);
  }
  return { params };
}

/** Reads a body of at most maxBytes, or null when it is larger. */
export async function readCappedText(request: Request, maxBytes: number): Promise<string | null> {
  if (Number(request.headers.get('content-length') ?? '0') > maxBytes) return null;
  const buf = await request.arrayBuffer();
  return buf.byteLength > maxBytes ? null : new TextDecoder().decode(buf);
}
