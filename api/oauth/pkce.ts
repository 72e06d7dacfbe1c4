import { createHash } from 'node:crypto';
import { safeEqual } from '../../core/auth/secrets.ts';

// PKCE (RFC 7636) with S256 only: "plain" would hand the verifier to anyone who sees the
// authorization request. A few lines of node:crypto; no library needed.

/** An S256 challenge is base64url(SHA-256(verifier)): exactly 43 characters. */
export const isS256Challenge = (challenge: string) => /^[A-Za-z0-9_-]{43}$/.test(challenge);

/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
export const isCodeVerifier = (verifier: string) => /^[A-Za-z0-9\-._~]{43,128}$/.test(verifier);

export const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export function verifyS256(verifier: string, challenge: string): boolean {
  return isCodeVerifier(verifier) && safeEqual(s256(verifier), challenge);
}
