import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { consentAndFollow, pkcePair, selfSignedCertificate, signedInCookie, startEdgeProcess, type EdgeProcess } from '../../test/oauth-kit.ts';

// The full flow driven by the official MCP client SDK (2.x) against the running server: discovery
// from the 401, registration (dynamic, or a client ID metadata document), PKCE, consent in a
// "browser" (fetch with a session cookie), code exchange, and an authenticated tool call.

/** An in-memory OAuthClientProvider; redirectToAuthorization only records the URL (the test is the browser). */
class MemoryProvider implements OAuthClientProvider {
  info?: StoredOAuthClientInformation;
  saved?: StoredOAuthTokens;
  verifier = '';
  discovery?: OAuthDiscoveryState;
  authorizationUrl?: URL;
  readonly clientMetadataUrl?: string;
  constructor(
    readonly redirect: string,
    opts: { clientMetadataUrl?: string } = {},
  ) {
    this.clientMetadataUrl = opts.clientMetadataUrl;
  }
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'SDK test agent', client_uri: 'https://agent.example/', redirect_uris: [this.redirect], token_endpoint_auth_method: 'none' };
  }
  state() {
    return 'state-from-the-sdk-test';
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(s: OAuthDiscoveryState) {
    this.discovery = s;
  }
  discoveryState() {
    return this.discovery;
  }
}

const REDIRECT = 'http://127.0.0.1:47123/callback';

/**
 * Connects, calls get_account (401 → the SDK discovers, registers, and "redirects"), plays the
 * browser, hands the code back with finishAuth, and calls get_account again.
 */
async function sdkFlow(siteUrl: string, cookie: string, provider: MemoryProvider) {
  const client = new Client({ name: 'oauth-flow-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${siteUrl}/mcp`), { authProvider: provider });
  await client.connect(transport);
  await expect(client.callTool({ name: 'get_account', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
  const authorizationUrl = provider.authorizationUrl!;
  expect(authorizationUrl.href.startsWith(`${siteUrl}/oauth/authorize?`)).toBe(true);
  expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorizationUrl.searchParams.get('resource')).toBe(`${siteUrl}/mcp`);

  const back = await consentAndFollow(siteUrl, authorizationUrl.href, cookie);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  expect(back.searchParams.get('state')).toBe('state-from-the-sdk-test');
  expect(back.searchParams.get('iss')).toBe(siteUrl);
  expect(back.searchParams.get('code')).toMatch(/^ldc_/);
  await transport.finishAuth(back.searchParams);
  expect(provider.saved?.access_token).toMatch(/^lda_/);

  const result = await client.callTool({ name: 'get_account', arguments: {} });
  await client.close();
  return { result: result as { structuredContent?: any; isError?: boolean }, authorizationUrl };
}

describe('MCP SDK OAuth flow with dynamic client registration', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { ALLOW_LOOPBACK_FETCH: 'true' } });
  });
  afterAll(() => app.stop());

  test('401, discovery, registration, consent, code exchange, then get_account as the person', async () => {
    const cookie = await signedInCookie(app.sql, 'agent-owner@example.com');
    const provider = new MemoryProvider(REDIRECT);
    const { result, authorizationUrl } = await sdkFlow(app.url, cookie, provider);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.user.email).toBe('agent-owner@example.com');
    expect(result.structuredContent.credential).toMatchObject({ kind: 'oauth', name: 'SDK test agent', client_id: provider.info!.client_id });
    expect(result.structuredContent.credential.scopes).toEqual(['account:read', 'listings:write', 'orders:write']);
    // Registered dynamically: a UUID client_id, a public client.
    expect(provider.info!.client_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(authorizationUrl.searchParams.get('client_id')).toBe(provider.info!.client_id);
    const [row] = await app.sql`select kind, token_endpoint_auth_method, client_secret_hash from oauth_clients where client_id = ${provider.info!.client_id}`;
    expect(row).toEqual({ kind: 'registered', token_endpoint_auth_method: 'none', client_secret_hash: null });
    // The SDK asked for a refresh token (grant_types) and got one.
    expect(provider.saved?.refresh_token).toMatch(/^ldr_/);
  }, 60_000);

  test('the token is bound to /mcp: refused on REST, which needs a token issued for /api/v1', async () => {
    const cookie = await signedInCookie(app.sql, 'audience@example.com');
    const provider = new MemoryProvider(REDIRECT);
    const { result } = await sdkFlow(app.url, cookie, provider);
    expect(result.structuredContent.user.email).toBe('audience@example.com');
    const mcpToken = provider.saved!.access_token;
    const onRest = await fetch(`${app.api}/me`, { headers: { authorization: `Bearer ${mcpToken}` } });
    expect(onRest.status).toBe(401);
    expect(onRest.headers.get('www-authenticate')).toContain('error="invalid_token"');

    // The same client asks for the REST API as its resource (RFC 8707); that token works on REST and not on MCP.
    const url = new URL(provider.authorizationUrl!);
    url.searchParams.set('resource', `${app.url}/api/v1`);
    const pkce = pkcePair();
    url.searchParams.set('code_challenge', pkce.challenge);
    const back = await consentAndFollow(app.url, url.href, cookie);
    const tokenRes = await fetch(`${app.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        code_verifier: pkce.verifier,
        redirect_uri: REDIRECT,
        client_id: provider.info!.client_id,
        resource: `${app.url}/api/v1`,
      }),
    });
    expect(tokenRes.status).toBe(200);
    const restToken = (await tokenRes.json()).access_token;
    const me = await app.json('/me', { headers: { authorization: `Bearer ${restToken}` } });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('audience@example.com');
    expect(me.body.credential.kind).toBe('oauth');
    const onMcp = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${restToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_account', arguments: {} } }),
    });
    expect(onMcp.status).toBe(401);
  }, 60_000);
});

describe('MCP SDK OAuth flow with a client ID metadata document', () => {
  // The SDK only uses https client ID URLs, so the document is served over https with a
  // throwaway certificate, and the edge runs as a child process that trusts it (NODE_EXTRA_CA_CERTS
  // is read at process start). ALLOW_LOOPBACK_FETCH lets the edge reach 127.0.0.1.
  let edge: EdgeProcess;
  let tls: ReturnType<typeof selfSignedCertificate>;
  let docServer: ReturnType<typeof Bun.serve>;
  let documentUrl = '';
  let fetches = 0;

  beforeAll(async () => {
    tls = selfSignedCertificate();
    docServer = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      tls: { cert: tls.cert, key: tls.key },
      fetch(req) {
        if (new URL(req.url).pathname !== '/oauth/client.json') return new Response('no', { status: 404 });
        fetches++;
        return Response.json(
          {
            client_id: documentUrl,
            client_name: 'Metadata Document Agent',
            client_uri: `https://127.0.0.1:${docServer.port}/`,
            redirect_uris: [REDIRECT],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
          },
          { headers: { 'cache-control': 'max-age=600' } },
        );
      },
    });
    documentUrl = `https://127.0.0.1:${docServer.port}/oauth/client.json`;
    edge = await startEdgeProcess({ ALLOW_LOOPBACK_FETCH: 'true', NODE_EXTRA_CA_CERTS: tls.certPath });
  }, 60_000);
  afterAll(async () => {
    await edge?.stop();
    docServer?.stop(true);
    tls?.cleanup();
  });

  test('the client_id is the document URL; the server fetches, checks and caches it; get_account works', async () => {
    const cookie = await signedInCookie(edge.sql, 'cimd-owner@example.com');
    const provider = new MemoryProvider(REDIRECT, { clientMetadataUrl: documentUrl });
    const { result, authorizationUrl } = await sdkFlow(edge.url, cookie, provider);
    expect(authorizationUrl.searchParams.get('client_id')).toBe(documentUrl);
    expect(provider.info!.client_id).toBe(documentUrl);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.user.email).toBe('cimd-owner@example.com');
    expect(result.structuredContent.credential).toMatchObject({ kind: 'oauth', name: 'Metadata Document Agent', client_id: documentUrl });
    const [row] = await edge.sql`select kind, client_name, redirect_uris, expires_at - fetched_at as ttl from oauth_clients where client_id = ${documentUrl}`;
    expect(row.kind).toBe('metadata_document');
    expect(row.client_name).toBe('Metadata Document Agent');
    expect(row.redirect_uris).toEqual([REDIRECT]);
    // Cache-Control max-age=600 is respected; the consent GET and POST used one fetch.
    expect(fetches).toBe(1);
  }, 60_000);
});
