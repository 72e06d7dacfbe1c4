import { afterAll, beforeAll, expect, test } from 'bun:test';
import { launchBrowser, type Browser } from '../browser.ts';
import { startTestApp, type TestApp } from '../harness.ts';

// /docs: Scalar's API reference from the npm package, served by us, opening with the sections a
// client needs first; nothing loaded from elsewhere, nothing blocked by the CSP.

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

test('the reference UI renders the OpenAPI document from our own assets, opening with authentication, scopes, rate limits, idempotency, errors and MCP setup', async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const outside: string[] = [];
  const csp: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(app.url) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) outside.push(r.url());
  });
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) csp.push(m.text());
  });
  try {
    const res = await page.goto(`${app.url}/docs`);
    expect(res!.headers()['content-security-policy']).toContain("connect-src 'self'");
    for (const h of ['Authentication', 'Scopes', 'Rate limits', 'Idempotency', 'Errors', 'MCP setup']) {
      await page.getByRole('heading', { name: h, exact: true }).first().waitFor({ timeout: 30_000 });
    }
    // The operations' groups (the document's tags) are listed by Scalar itself: text inside the
    // <noscript> reference is never matched here.
    await page.getByText('Listings', { exact: true }).first().waitFor({ timeout: 30_000 });
    const text = await page.locator('body').textContent();
    expect(text).toContain('Launchpad Directory API');
    expect(text).toContain(`${app.url}/mcp`);
    expect(outside).toEqual([]);
    expect(csp).toEqual([]);
  } finally {
    await page.close();
  }
}, 120_000);

test('the bundle and the document for the UI are served by us, the plain reference stays available', async () => {
  const js = await fetch(`${app.url}/docs/scalar.js`);
  expect(js.headers.get('content-type')).toContain('javascript');
  expect((await js.text()).length).toBeGreaterThan(100_000);
  const doc = await (await fetch(`${app.url}/docs/openapi.json`)).json();
  expect(doc.info.description.startsWith('## Authentication')).toBe(true);
  expect(Object.keys(doc.paths)).toEqual(Object.keys((await (await fetch(`${app.url}/api/v1/openapi.json`)).json()).paths));
  expect((await fetch(`${app.url}/docs/plain`)).status).toBe(200);
});
