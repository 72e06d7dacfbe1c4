import { afterAll, beforeAll, expect, test } from 'bun:test';
import { Logger, run, type Runner } from 'graphile-worker';
import { sendMail } from '../../pipeline/tasks/send-mail.ts';
import { launchBrowser, signInWithBrowser, type Browser } from '../browser.ts';
import { startTestApp, type TestApp } from '../harness.ts';
import { startSmtpSink, type SmtpSink } from '../smtp-sink.ts';

// A person in Chromium: sign in by e-mail link, create an API key, use it, revoke it, sign out.

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const me = (secret: string) => fetch(`${app.api}/me`, { headers: { authorization: `Bearer ${secret}` } });

test('sign in by e-mail link, create a key with two scopes, use it, revoke it, sign out', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    const email = 'browser-person@example.test';
    await signInWithBrowser(page, { baseUrl: app.url, sql: app.sql, email });
    expect(new URL(page.url()).pathname).toBe('/account');
    await expect(page.getByRole('heading', { name: 'Your account' }).isVisible()).resolves.toBe(true);
    expect(await page.locator('main').textContent()).toContain(email);
    // The session cookie is HttpOnly: page scripts could not read it even if they ran.
    const session = (await context.cookies()).find((c) => c.name === 'session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    await page.locator('main').getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL((u) => u.pathname === '/account/api-keys');
    await page.getByLabel('Name').fill('Browser key');
    await page.getByRole('checkbox', { name: /account:read/ }).check();
    await page.getByRole('checkbox', { name: /orders:write/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();

    const secret = (await page.locator('#new-key-secret').textContent())!.trim();
    expect(secret).toMatch(/^ldk_[A-Za-z0-9_-]{43}$/);
    expect(await page.getByText('it will not be shown again').isVisible()).toBe(true);

    const ok = await me(secret);
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body.user.email).toBe(email);
    expect(body.credential).toMatchObject({ kind: 'api_key', name: 'Browser key', scopes: ['account:read', 'orders:write'] });

    // Shown once: the page loaded again lists the key without its secret.
    await page.goto(`${app.url}/account/api-keys`);
    expect(await page.locator('#new-key-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    const row = page.locator('tr', { hasText: 'Browser key' });
    expect(await row.textContent()).toContain('account:read, orders:write');
    expect(await row.textContent()).toContain('active');

    await Promise.all([page.waitForURL((u) => u.searchParams.has('revoked')), row.getByRole('button', { name: 'Revoke Browser key' }).click()]);
    expect(await page.getByRole('status').textContent()).toContain('is revoked');
    expect(await page.locator('tr', { hasText: 'Browser key' }).textContent()).toContain('revoked');
    expect((await me(secret)).status).toBe(401);

    await page.goto(`${app.url}/account`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Signed out' }).waitFor();
    await page.goto(`${app.url}/account`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(new URL(page.url()).searchParams.get('return_to')).toBe('/account');
  } finally {
    await context.close();
  }
});

test('with SMTP_URL set the worker mails the link, and it signs in with return_to kept', async () => {
  const sink: SmtpSink = await startSmtpSink();
  let runner: Runner | undefined;
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    runner = await run({
      connectionString: app.databaseUrl,
      concurrency: 1,
      pollInterval: 100,
      noHandleSignals: true,
      logger: new Logger(() => () => {}),
      taskList: { send_mail: sendMail({ sql: app.sql, mail: { smtpUrl: sink.url, from: 'robot@directory.test' } }) },
    });
    const email = 'smtp-person@example.test';
    await page.goto(`${app.url}/sign-in?return_to=${encodeURIComponent('/account/api-keys')}`);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();

    const mail = await sink.waitFor((m) => m.to.includes(email));
    expect(mail.from).toBe('robot@directory.test');
    const link = /https?:\/\/\S+\/sign-in\/verify\?token=\S+/.exec(mail.text)![0];
    await page.goto(link);
    await Promise.all([page.waitForURL((u) => u.pathname === '/account/api-keys'), page.getByRole('button', { name: 'Sign in' }).click()]);
    expect(await page.getByRole('heading', { name: 'API keys' }).isVisible()).toBe(true);
    const [row] = await app.sql`select sent_at from mail_outbox where to_address = ${email}`;
    expect(row.sent_at).toBeInstanceOf(Date);
  } finally {
    await context.close();
    await runner?.stop();
    await sink.stop();
  }
});
