import { expect, test } from 'bun:test';
import { loadConfig } from '../../core/config.ts';
import { cacheSeconds, clientIdUrlProblem } from './client-metadata-document.ts';
import { validateClientMetadata } from './client-metadata.ts';
import { isS256Challenge, s256, verifyS256 } from './pkce.ts';
import { redirectUriMatches, redirectUriProblem, withParams } from './redirect-uris.ts';
import { canonicalResource } from './resources.ts';

test('PKCE S256: the RFC 7636 appendix B example, and malformed verifiers', () => {
  expect(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  expect(verifyS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
  expect(verifyS256('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(false);
  expect(verifyS256('short', s256('short'))).toBe(false);
  expect(isS256Challenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
  expect(isS256Challenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-c=')).toBe(false);
});

test('redirect URIs: exact match, except the port of a loopback IP', () => {
  const r = 'http://127.0.0.1:3000/cb';
  expect(redirectUriMatches(r, r)).toBe(true);
  expect(redirectUriMatches(r, 'http://127.0.0.1:4000/cb')).toBe(true);
  expect(redirectUriMatches(r, 'http://127.0.0.1/cb')).toBe(true);
  expect(redirectUriMatches(r, 'http://127.0.0.1:4000/cb/x')).toBe(false);
  expect(redirectUriMatches(r, 'http://127.0.0.1:4000/cb?x=1')).toBe(false);
  expect(redirectUriMatches(r, 'http://127.0.0.1:3000@evil.example/cb')).toBe(false);
  expect(redirectUriMatches(r, 'http://[::1]:3000/cb')).toBe(false);
  expect(redirectUriMatches('http://localhost:3000/cb', 'http://localhost:4000/cb')).toBe(false);
  expect(redirectUriMatches('https://a.example/cb', 'https://a.example/cb/')).toBe(false);
  expect(redirectUriMatches('https://a.example/cb', 'https://A.example/cb')).toBe(false);
  expect(redirectUriProblem('https://a.example/cb')).toBeNull();
  expect(redirectUriProblem('com.example.app:/cb')).toBeNull();
  expect(redirectUriProblem('http://[::1]:9/cb')).toBeNull();
  expect(redirectUriProblem('http://10.0.0.1/cb')).toContain('https');
  expect(redirectUriProblem('data:text/html,hi')).toContain('scheme');
  expect(withParams('https://a.example/cb?x=1', { code: 'c', state: null, iss: 'https://s' })).toBe('https://a.example/cb?x=1&code=c&iss=https%3A%2F%2Fs');
});

test('resource indicators: ours only, in canonical form', () => {
  const config = loadConfig({ SITE_URL: 'https://dir.example' });
  expect(canonicalResource(config, 'https://dir.example/mcp')).toBe('https://dir.example/mcp');
  expect(canonicalResource(config, 'HTTPS://DIR.example:443/mcp/')).toBe('https://dir.example/mcp');
  expect(canonicalResource(config, 'https://dir.example/api/v1')).toBe('https://dir.example/api/v1');
  expect(canonicalResource(config, 'https://dir.example/mcp#x')).toBeNull();
  expect(canonicalResource(config, 'https://dir.example/mcp?x=1')).toBeNull();
  expect(canonicalResource(config, 'https://dir.example')).toBeNull();
  expect(canonicalResource(config, 'https://other.example/mcp')).toBeNull();
});

test('client ID metadata document URLs and cache lifetimes', () => {
  expect(clientIdUrlProblem('https://app.example/client.json', false)).toBeNull();
  expect(clientIdUrlProblem('http://127.0.0.1:8/client.json', false)).toContain('https');
  expect(clientIdUrlProblem('http://127.0.0.1:8/client.json', true)).toBeNull();
  expect(clientIdUrlProblem('http://app.example/client.json', true)).toContain('https');
  expect(clientIdUrlProblem('https://app.example', false)).toContain('path');
  expect(clientIdUrlProblem('https://app.example/c.json?v=1', false)).toContain('query');
  expect(clientIdUrlProblem('https://app.example/c.json#x', false)).toContain('fragment');
  expect(clientIdUrlProblem('https://u:p@app.example/c.json', false)).toContain('password');
  expect(clientIdUrlProblem('https://app.example/a/./c.json', false)).toContain('canonical');
  expect(cacheSeconds(null)).toBe(3600);
  expect(cacheSeconds('public, max-age=600')).toBe(600);
  expect(cacheSeconds('max-age=5')).toBe(60);
  expect(cacheSeconds('max-age=999999999')).toBe(86400);
  expect(cacheSeconds('no-store')).toBe(60);
});

test('client metadata: defaults, our scopes kept, documents must be public and named', () => {
  const ok = validateClientMetadata({ redirect_uris: ['https://a.example/cb'], scope: 'openid orders:write account:read' }, 'registration');
  expect(ok).toEqual({
    fields: {
      clientName: null,
      clientUri: null,
      redirectUris: ['https://a.example/cb'],
      authMethod: 'none',
      extras: { scope: ['account:read', 'orders:write'], grant_types: ['authorization_code'], response_types: ['code'] },
    },
  });
  expect(validateClientMetadata({ redirect_uris: ['https://a.example/cb'] }, 'document')).toMatchObject({ error: 'invalid_client_metadata' });
  expect(
    validateClientMetadata({ client_name: 'A', redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'client_secret_basic' }, 'document'),
  ).toMatchObject({ error: 'invalid_client_metadata' });
  expect(validateClientMetadata({ client_name: 'A\u202eevil', redirect_uris: ['https://a.example/cb'] }, 'registration')).toMatchObject({
    error: 'invalid_client_metadata',
  });
  expect(validateClientMetadata([], 'registration')).toMatchObject({ error: 'invalid_client_metadata' });
});
