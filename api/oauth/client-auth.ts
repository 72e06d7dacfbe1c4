import { Buffer } from 'node:buffer';
import type { Sql } from '../../sql/db.ts';
import { findClient, type OAuthClient } from '../../core/auth/oauth-clients.ts';
import { hashSecret, safeEqual } from '../../core/auth/secrets.ts';
import { fail, type OAuthFailure } from './responses.ts';

const basicChallenge = { 'www-authenticate': 'Basic realm="oauth", charset="UTF-8"' };

/** RFC 6749 section 2.3.1: client_id and secret are form-urlencoded before Basic encoding. */
function parseBasic(header: string): { id: string; secret: string } | null {
  const m = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    const form = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: form(decoded.slice(0, colon)), secret: form(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

/**
 * Who is calling the token or revocation endpoint. Public clients (token_endpoint_auth_method
 * none, every client ID metadata document) identify themselves with client_id; confidential ones
 * prove themselves with their secret by client_secret_basic or client_secret_post (either is
 * accepted, never both at once). Failures are invalid_client with 401 (RFC 6749 section 5.2).
 */
export async function authenticateClient(
  sql: Sql,
  request: Request,
  params: Map<string, string>,
): Promise<{ client: OAuthClient } | { failure: OAuthFailure }> {
  const header = request.headers.get('authorization');
  const basic = header ? parseBasic(header) : null;
  const denied = (description: string) => ({ failure: fail('invalid_client', description, 401, header ? basicChallenge : undefined) });
  if (header && !basic) return denied('The Authorization header is not valid client_secret_basic.');
  const bodySecret = params.get('client_secret') ?? '';
  if (basic && bodySecret) return { failure: fail('invalid_request', 'Use one client authentication method, not both.') };
  const bodyId = params.get('client_id');
  if (basic && bodyId !== undefined && bodyId !== basic.id) return { failure: fail('invalid_request', 'client_id differs from the authenticated client.') };
  const clientId = basic?.id ?? bodyId;
  if (!clientId) return denied('client_id is missing.');
  const client = await findClient(sql, clientId);
  if (!client) return denied('Unknown client.');
  const secret = basic?.secret ?? bodySecret;
  if (client.authMethod === 'none') {
    if (secret) return denied('This client is public and has no secret.');
    return { client };
  }
  if (!secret || !client.clientSecretHash || !safeEqual(hashSecret(secret), client.clientSecretHash)) return denied('Client authentication failed.');
  return { client };
}
