import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Every secret we hand out is a typed prefix plus 32 random bytes (base64url), so a leaked
 * string says what it is (secret scanners key on the prefix) and the edge can tell an API key
 * from an access token without a lookup. Only the SHA-256 of a secret is stored: the secrets
 * carry 256 bits of entropy, so a fast hash is enough (no password hashing needed).
 */
export const SECRET_PREFIX = {
  apiKey: 'ldk_',
  accessToken: 'lda_',
  refreshToken: 'ldr_',
  session: 'lds_',
  loginLink: 'ldl_',
  authCode: 'ldc_',
  clientSecret: 'ldcs_',
  invite: 'ldi_',
  claimLink: 'ldv_',
  unsubscribe: 'ldu_',
  dispute: 'ldd_',
} as const;

export const newSecret = (prefix: string) => prefix + randomBytes(32).toString('base64url');

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Constant-time string comparison (for CSRF tokens and the like). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
