import { afterAll, beforeAll, expect, test } from 'bun:test';
import { launchBrowser, signInWithBrowser, type Browser } from '../../test/browser.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { pkcePair } from '../../test/oauth-kit.ts';

// A person in Chromium meets an OAuth request: sign in first (return_to brings them back), then the
// consent page, then "Allow access" takes the browser to the app's redirect URI. This checks what
// fetch cannot: that the page's CSP (form-action) lets the browser follow the answer to the app.

let app: TestApp;
let browser: Browser;
let callback: ReturnType<typeof Bun.serve>;
beforeAll(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
  callback = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () => new Response('<!doctype html><title>Back in the app</title><h1>Back in the app</h1>', { headers: { 'content-type': 'text/html' } }),
  });
});
afterAll(async () => {
  await browser?.close();
  callback?.stop(true);
  await app?.stop();
});

async function authorizeUrl(state: string) {
  const redirect = `http://127.0.0.1:${callback.port}/callback`;
  const reg = await fetch(`${app.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Browser Agent', redirect_uris: [redirect], grant_types: ['authorization_code', 'refresh_token'] }),
  });
  const clientId = (await reg.json()).client_id as string;
  const pkce = pkcePair();
  const url = new URL(`${app.url}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirect,
    state,
    scope: 'account:read',
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    resource: `${app.url}/mcp`,
  }).toString();
  return { url, clientId, redirect, pkce };
}

test('sign in, consent, Allow access: the browser lands on the app with code, state and iss', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    const { url, clientId, redirect, pkce } = await authorizeUrl('browser-state');
    await page.goto(url.href);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await signInWithBrowser(page, { baseUrl: app.url, sql: app.sql, email: 'consenting@example.test', returnTo: url.pathname + url.search });
    expect(page.url()).toBe(url.href);
    await expect(page.getByRole('heading', { name: /Allow Browser Agent access/ }).isVisible()).resolves.toBe(true);
    expect(await page.locator('#redirect-uri').textContent()).toBe(redirect);
    expect(await page.locator('#scopes').textContent()).toContain('account:read');

    await Promise.all([page.waitForURL((u) => u.port === String(callback.port)), page.getByRole('button', { name: 'Allow access' }).click()]);
    const back = new URL(page.url());
    expect(`${back.origin}${back.pathname}`).toBe(redirect);
    expect(back.searchParams.get('state')).toBe('browser-state');
    expect(back.searchParams.get('iss')).toBe(app.url);
    await expect(page.getByRole('heading', { name: 'Back in the app' }).isVisible()).resolves.toBe(true);

    const tokenRes = await fetch(`${app.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        code_verifier: pkce.verifier,
        redirect_uri: redirect,
        client_id: clientId,
      }),
    });
    expect(tokenRes.status).toBe(200);

    // Deny from the same signed-in browser.
    const second = await authorizeUrl('deny-state');
    await page.goto(second.url.href);
    await Promise.all([page.waitForURL((u) => u.port === String(callback.port)), page.getByRole('button', { name: 'Deny' }).click()]);
    const denied = new URL(page.url());
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('deny-state');
  } finally {
    await context.close();
  }
}, 60_000);
