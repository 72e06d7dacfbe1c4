import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Sql } from '../sql/db.ts';

// Helpers for tests that act as a person in a browser: a real Chromium (playwright-core), and a
// cookie-keeping HTTP client for page tests that need no rendering. Both are meant for reuse
// (e.g. the OAuth consent page).

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

// @sparticuz/chromium's own flags are tuned for serverless sandboxes; these would switch off the
// very browser rules our pages are tested against (CSP form-action, mixed content, site isolation).
const UNSAFE_FLAGS = /^--(disable-web-security|allow-running-insecure-content|disable-site-isolation-trials|single-process)\b/;

/**
 * A headless Chromium; each browser.newContext() is a fresh, empty profile. The system one when
 * present (or CHROMIUM_PATH), otherwise the build shipped inside the @sparticuz/chromium npm
 * package, so `npm install && npm test` needs nothing from outside the registry.
 */
export async function launchBrowser(): Promise<Browser> {
  const system = [process.env.CHROMIUM_PATH, ...SYSTEM_CHROMIUM].find((p): p is string => !!p && existsSync(p));
  if (system) return chromium.launch({ executablePath: system, headless: true, args: CHROMIUM_ARGS });
  const packaged = (await import('@sparticuz/chromium')).default;
  const executablePath = await packaged.executablePath();
  const args = [...new Set([...packaged.args.filter((a) => !UNSAFE_FLAGS.test(a)), ...CHROMIUM_ARGS])];
  return chromium.launch({ executablePath, headless: true, args });
}

export type { Browser, BrowserContext, Page };

/** The newest sign-in link mailed to an address, read from the mail_outbox table (what operators see). */
export async function latestSignInLink(sql: Sql, email: string): Promise<string> {
  const [row] = await sql<{ body_text: string }[]>`
    select body_text from mail_outbox where lower(to_address) = lower(${email}) and kind = 'sign_in' order by id desc limit 1`;
  const link = row && /https?:\/\/\S+\/sign-in\/verify\?token=[A-Za-z0-9_%-]+/.exec(row.body_text)?.[0];
  if (!link) throw new Error(`no sign-in link in the outbox for ${email}`);
  return link;
}

/**
 * Lets a test sign the same address in again at once: a new link is otherwise refused for 30 s
 * after the last one (and the outbox would still hold the old, used link).
 */
export async function allowNewSignInLink(sql: Sql, email: string): Promise<void> {
  await sql`update login_links set created_at = created_at - interval '1 minute' where lower(email) = lower(${email})`;
}

/**
 * Signs a browser page in the way a person does: the sign-in form, the mailed link, the Sign in
 * button. Starts at /sign-in (with return_to when given) and leaves the page where sign-in lands.
 */
export async function signInWithBrowser(page: Page, opts: { baseUrl: string; sql: Sql; email: string; returnTo?: string }): Promise<void> {
  const start = opts.returnTo ? `/sign-in?return_to=${encodeURIComponent(opts.returnTo)}` : '/sign-in';
  await allowNewSignInLink(opts.sql, opts.email);
  await page.goto(`${opts.baseUrl}${start}`);
  await page.getByLabel('E-mail address').fill(opts.email);
  await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
  await page.goto(await latestSignInLink(opts.sql, opts.email));
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/sign-in')), page.getByRole('button', { name: 'Sign in' }).click()]);
}

/**
 * An HTTP client that keeps cookies like a browser and sends this site's Origin on POST, without
 * following redirects (tests look at them). `csrf` reads the token from a page's form.
 */
export class WebClient {
  readonly cookies = new Map<string, string>();
  /** `send` is how requests reach the site: `fetch`, or a test app's `fetch` when it has no port. */
  constructor(
    readonly baseUrl: string,
    private readonly send: (url: string | URL, init?: RequestInit) => Promise<Response> = fetch,
  ) {}

  private store(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private cookieHeader(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    const res = await this.send(new URL(path, this.baseUrl), { redirect: 'manual', headers: { ...this.cookieHeader(), ...headers } });
    this.store(res);
    return res;
  }

  /** POSTs a urlencoded form. `origin: null` leaves the Origin header out; a string replaces it. */
  async post(
    path: string,
    fields: Record<string, string | string[]>,
    opts: { origin?: string | null; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of ([] as string[]).concat(v)) body.append(k, one);
    const origin = opts.origin === undefined ? new URL(this.baseUrl).origin : opts.origin;
    const res = await this.send(new URL(path, this.baseUrl), {
      method: 'POST',
      redirect: 'manual',
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}), ...this.cookieHeader(), ...opts.headers },
    });
    this.store(res);
    return res;
  }

  /** The CSRF token of the (first) form on a page, loading it to get the cookie too. */
  async csrf(path: string): Promise<string> {
    const res = await this.get(path);
    const m = /name="csrf" value="([^"]+)"/.exec(await res.text());
    if (!m) throw new Error(`no CSRF field on ${path} (status ${res.status})`);
    return m[1];
  }
}

/** Signs a WebClient in through the pages (form, mailed link, button); returns the final redirect. */
export async function signInWithClient(client: WebClient, sql: Sql, email: string, returnTo?: string): Promise<Response> {
  const start = returnTo ? `/sign-in?return_to=${encodeURIComponent(returnTo)}` : '/sign-in';
  const csrf = await client.csrf(start);
  await allowNewSignInLink(sql, email);
  const sent = await client.post('/sign-in', { csrf, email, ...(returnTo ? { return_to: returnTo } : {}) });
  if (sent.status !== 200) throw new Error(`POST /sign-in answered ${sent.status}`);
  const link = new URL(await latestSignInLink(sql, email));
  const token = link.searchParams.get('token')!;
  const verifyCsrf = await client.csrf(link.pathname + link.search);
  return client.post('/sign-in/verify', { csrf: verifyCsrf, token });
}
