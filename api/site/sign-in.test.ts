import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { hashSecret } from '../../core/auth/secrets.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { allowNewSignInLink, latestSignInLink, signInWithClient, WebClient } from '../../test/browser.ts';
import { makeUser } from '../../test/builders.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ socket: false });
});
afterAll(() => app.stop());

const client = () => new WebClient(app.url, app.fetch);
const mailCount = async (email: string) => (await app.sql`select count(*)::int as n from mail_outbox where lower(to_address) = lower(${email})`)[0].n as number;
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

/** Asks for a link through the form and returns the mailed link. */
async function requestLink(c: WebClient, email: string, returnTo?: string): Promise<string> {
  const csrf = await c.csrf('/sign-in');
  const res = await c.post('/sign-in', { csrf, email, ...(returnTo === undefined ? {} : { return_to: returnTo }) });
  expect(res.status).toBe(200);
  return latestSignInLink(app.sql, email);
}

describe('GET /sign-in', () => {
  test('shows the form with a CSRF field and sets the CSRF cookie (HttpOnly, SameSite=Lax)', async () => {
    const res = await app.fetch(`${app.url}/sign-in`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('csrf='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    const page = await res.text();
    expect(page).toContain('<form method="post" action="/sign-in">');
    expect(page).toContain(`name="csrf" value="${/^csrf=([^;]+)/.exec(cookie)![1]}"`);
    expect(page).toContain('name="return_to" value="/account"');
  });

  test('keeps a return_to that is a path on this site', async () => {
    const page = await (await app.fetch(`${app.url}/sign-in?return_to=${encodeURIComponent('/account/api-keys?tab=1')}`)).text();
    expect(page).toContain('name="return_to" value="/account/api-keys?tab=1"');
  });

  test('replaces a return_to that leaves the site with /account', async () => {
    for (const bad of ['//evil.com', 'https://evil.com', '/\\evil.com', '/\t/evil.com', 'javascript:alert(1)']) {
      const page = await (await app.fetch(`${app.url}/sign-in?return_to=${encodeURIComponent(bad)}`)).text();
      expect(page).toContain('name="return_to" value="/account"');
      expect(page).not.toContain('evil.com');
    }
  });
});

describe('POST /sign-in', () => {
  test('refuses a form without the CSRF token, with a wrong one, or from another origin (403, no mail)', async () => {
    const c = client();
    const csrf = await c.csrf('/sign-in');
    const email = 'csrf-victim@example.test';
    const attempts = [
      await c.post('/sign-in', { email }),
      await c.post('/sign-in', { email, csrf: 'x'.repeat(43) }),
      await c.post('/sign-in', { email, csrf }, { origin: 'https://evil.example' }),
      await c.post('/sign-in', { email, csrf }, { origin: null, headers: { referer: 'https://evil.example/page' } }),
      await new WebClient(app.url, app.fetch).post('/sign-in', { email, csrf }), // right token value, but no cookie
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('Form expired');
    }
    expect(await mailCount(email)).toBe(0);
    // The same form from this site passes.
    expect((await c.post('/sign-in', { email, csrf })).status).toBe(200);
    expect(await mailCount(email)).toBe(1);
  });

  test('re-shows the form with a message for an invalid address (400), keeping what was typed', async () => {
    const c = client();
    const csrf = await c.csrf('/sign-in');
    const total = async () => (await app.sql`select count(*)::int as n from mail_outbox`)[0].n as number;
    const before = await total();
    for (const email of ['', 'not-an-address', 'a@b', 'two@@example.test', 'space in@example.test', `${'a'.repeat(250)}@example.test`]) {
      const res = await c.post('/sign-in', { csrf, email, return_to: '/account/api-keys' });
      expect(res.status).toBe(400);
      const page = await res.text();
      expect(page).toContain('Enter a valid e-mail address');
      expect(page).toContain('name="return_to" value="/account/api-keys"');
    }
    expect(await total()).toBe(before);
  });

  test('mails a single-use link, stores only its hash, and queues the send_mail job', async () => {
    const c = client();
    const email = 'new-person@example.test';
    const csrf = await c.csrf('/sign-in');
    const res = await c.post('/sign-in', { csrf, email, return_to: '/account/api-keys' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Check your inbox');
    const [mail] = await app.sql`select id::text, subject, body_text, body_html, kind from mail_outbox where to_address = ${email}`;
    expect(mail.kind).toBe('sign_in');
    expect(mail.subject).toContain('Sign in to');
    const link = /\S+\/sign-in\/verify\?token=\S+/.exec(mail.body_text)![0];
    expect(link.startsWith(`${app.url}/sign-in/verify?token=ldl_`)).toBe(true);
    expect(mail.body_html).toContain(`href="${link}"`);
    const token = tokenOf(link);
    const [row] = await app.sql`select email, return_to, used_at, expires_at > now() + interval '14 minutes' as long_enough,
      expires_at <= now() + interval '15 minutes' as not_too_long from login_links where token_hash = ${hashSecret(token)}`;
    expect(row).toMatchObject({ email, return_to: '/account/api-keys', used_at: null, long_enough: true, not_too_long: true });
    expect((await app.sql`select count(*)::int as n from login_links where token_hash = ${token}`)[0].n).toBe(0);
    // The job's key is made from its payload's mail id (core/jobs/catalogue.ts).
    const jobs = await app.sql`select task_identifier from graphile_worker.jobs where key = ${'mail:' + mail.id}`;
    expect(jobs.map((j) => j.task_identifier)).toEqual(['send_mail']);
    // No account exists until the link is used.
    expect((await app.sql`select count(*)::int as n from users where email = ${email}`)[0].n).toBe(0);
  });

  test('answers the same whether or not the address has an account', async () => {
    await makeUser(app.sql, { email: 'known@example.test' });
    const pages: string[] = [];
    for (const email of ['known@example.test', 'unknown@example.test']) {
      const c = client();
      const res = await c.post('/sign-in', { csrf: await c.csrf('/sign-in'), email });
      expect(res.status).toBe(200);
      pages.push((await res.text()).replace(email, 'ADDRESS'));
    }
    expect(pages[0]).toBe(pages[1]);
  });

  test('sends one link per address per 30 seconds, with the same answer', async () => {
    const email = 'Repeat@Example.test';
    const c = client();
    const csrf = await c.csrf('/sign-in');
    const first = await c.post('/sign-in', { csrf, email });
    const second = await c.post('/sign-in', { csrf, email: email.toLowerCase() });
    expect(second.status).toBe(200);
    expect((await second.text()).replace(email.toLowerCase(), email)).toBe(await first.text());
    expect(await mailCount(email)).toBe(1);
    await allowNewSignInLink(app.sql, email);
    expect((await c.post('/sign-in', { csrf, email })).status).toBe(200);
    expect(await mailCount(email)).toBe(2);
  });

  test('two requests at the same moment make one link', async () => {
    const email = 'racer@example.test';
    const c = client();
    const csrf = await c.csrf('/sign-in');
    const results = await Promise.all(Array.from({ length: 5 }, () => c.post('/sign-in', { csrf, email })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await app.sql`select count(*)::int as n from login_links where email = ${email}`)[0].n).toBe(1);
  });
});

describe('the mailed link', () => {
  test('opening it (GET) shows a Sign in button and uses nothing up', async () => {
    const email = 'prefetch@example.test';
    const link = await requestLink(client(), email);
    for (let i = 0; i < 3; i++) {
      // A mail scanner opening the link: no cookies, several times.
      const res = await app.fetch(link, { redirect: 'manual' });
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie().some((c) => c.startsWith('session='))).toBe(false);
      const page = await res.text();
      expect(page).toContain(email);
      expect(page).toContain('<form method="post" action="/sign-in/verify">');
      expect(page).toContain(`name="token" value="${tokenOf(link)}"`);
    }
    const [row] = await app.sql`select used_at from login_links where token_hash = ${hashSecret(tokenOf(link))}`;
    expect(row.used_at).toBeNull();
    expect((await app.sql`select count(*)::int as n from users where email = ${email}`)[0].n).toBe(0);
  });

  test('the Sign in button needs the CSRF token; refused, it leaves the link usable', async () => {
    const c = client();
    const link = await requestLink(c, 'careful@example.test');
    await c.get(link);
    const res = await c.post('/sign-in/verify', { token: tokenOf(link) });
    expect(res.status).toBe(403);
    const cross = await c.post('/sign-in/verify', { token: tokenOf(link), csrf: await c.csrf(link) }, { origin: 'http://evil.example' });
    expect(cross.status).toBe(403);
    const [row] = await app.sql`select used_at from login_links where token_hash = ${hashSecret(tokenOf(link))}`;
    expect(row.used_at).toBeNull();
  });

  test('the Sign in button makes the account, starts a session and goes to return_to (303)', async () => {
    const c = client();
    const email = 'Fresh.Person@example.test';
    const res = await signInWithClient(c, app.sql, email, '/account/api-keys');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${app.url}/account/api-keys`);
    const cookie = res.headers.getSetCookie().find((s) => s.startsWith('session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i); // plain http in tests; https gets __Host- and Secure (below)
    const [user] = await app.sql`select id::text, last_sign_in_at from users where email = ${email}`;
    expect(user.last_sign_in_at).toBeInstanceOf(Date);
    const [session] = await app.sql`select user_id::text, ended_at from sessions where id_hash = ${hashSecret(c.cookies.get('session')!)}`;
    expect(session).toEqual({ user_id: user.id, ended_at: null });
    const account = await c.get('/account');
    expect(account.status).toBe(200);
    expect(await account.text()).toContain(email);
  });

  test('an existing account is found case-insensitively, not duplicated', async () => {
    await makeUser(app.sql, { email: 'mixed@example.test' });
    const res = await signInWithClient(client(), app.sql, 'MIXED@example.test');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${app.url}/account`);
    expect((await app.sql`select count(*)::int as n from users where lower(email) = 'mixed@example.test'`)[0].n).toBe(1);
  });

  test('works once: using it again shows "already used" with a way to get a new one (410)', async () => {
    const c = client();
    const link = await requestLink(c, 'once@example.test', '/account/api-keys');
    const token = tokenOf(link);
    const csrf = await c.csrf(link);
    expect((await c.post('/sign-in/verify', { csrf, token })).status).toBe(303);
    const other = client();
    const again = await other.post('/sign-in/verify', { csrf: await other.csrf('/sign-in'), token });
    expect(again.status).toBe(410);
    const page = await again.text();
    expect(page).toContain('already used');
    expect(page).toContain(`href="/sign-in?return_to=${encodeURIComponent('/account/api-keys')}"`);
    expect(other.cookies.has('session')).toBe(false);
    const opened = await app.fetch(link);
    expect(opened.status).toBe(410);
    expect(await opened.text()).toContain('already used');
  });

  test('of two simultaneous uses exactly one signs in', async () => {
    const c = client();
    const link = await requestLink(c, 'double-click@example.test');
    const csrf = await c.csrf(link);
    const results = await Promise.all(Array.from({ length: 4 }, () => c.post('/sign-in/verify', { csrf, token: tokenOf(link) })));
    expect(results.map((r) => r.status).sort()).toEqual([303, 410, 410, 410]);
    expect((await app.sql`select count(*)::int as n from sessions s join users u on u.id = s.user_id where u.email = 'double-click@example.test'`)[0].n).toBe(
      1,
    );
  });

  test('an expired link says so, signs nobody in, and offers a new one (410)', async () => {
    const c = client();
    const link = await requestLink(c, 'slow@example.test');
    const csrf = await c.csrf(link); // opened while still valid
    await app.sql`update login_links set expires_at = now() - interval '1 minute' where token_hash = ${hashSecret(tokenOf(link))}`;
    const opened = await app.fetch(link);
    expect(opened.status).toBe(410);
    expect(await opened.text()).toContain('expired');
    const res = await c.post('/sign-in/verify', { csrf, token: tokenOf(link) });
    expect(res.status).toBe(410);
    expect(await res.text()).toContain('href="/sign-in?return_to=%2Faccount"');
    expect(c.cookies.has('session')).toBe(false);
    expect((await app.sql`select count(*)::int as n from users where email = 'slow@example.test'`)[0].n).toBe(0);
  });

  test('an unknown or malformed token is "not valid" (404)', async () => {
    for (const token of ['ldl_' + 'A'.repeat(43), 'garbage', '']) {
      const res = await app.fetch(`${app.url}/sign-in/verify?token=${encodeURIComponent(token)}`);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('not valid');
    }
    const c = client();
    const res = await c.post('/sign-in/verify', { csrf: await c.csrf('/sign-in'), token: 'ldl_' + 'B'.repeat(43) });
    expect(res.status).toBe(404);
  });

  test('return_to that tries to leave the site lands on /account after signing in', async () => {
    for (const [i, bad] of ['//evil.com', 'https://evil.com', '/\\evil.com', '/%09/evil.com'].entries()) {
      const c = client();
      const email = `redirect-${i}@example.test`;
      // Straight at the POST too, as an attacker would, not only through the GET form.
      const csrf = await c.csrf('/sign-in');
      expect((await c.post('/sign-in', { csrf, email, return_to: decodeURIComponent(bad) })).status).toBe(200);
      const link = await latestSignInLink(app.sql, email);
      const res = await c.post('/sign-in/verify', { csrf, token: tokenOf(link) });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`${app.url}/account`);
    }
  });

  test('a stored return_to is checked again on the way out', async () => {
    const c = client();
    const link = await requestLink(c, 'tampered@example.test');
    await app.sql`update login_links set return_to = '//evil.com' where token_hash = ${hashSecret(tokenOf(link))}`;
    const res = await c.post('/sign-in/verify', { csrf: await c.csrf(link), token: tokenOf(link) });
    expect(res.headers.get('location')).toBe(`${app.url}/account`);
  });

  test('signing in again in the same browser ends the earlier session', async () => {
    const c = client();
    await signInWithClient(c, app.sql, 'first-account@example.test');
    const firstSession = c.cookies.get('session')!;
    await signInWithClient(c, app.sql, 'second-account@example.test');
    expect(c.cookies.get('session')).not.toBe(firstSession);
    const [old] = await app.sql`select ended_at from sessions where id_hash = ${hashSecret(firstSession)}`;
    expect(old.ended_at).toBeInstanceOf(Date);
    expect(await (await c.get('/account')).text()).toContain('second-account@example.test');
  });
});

describe('GET /account and POST /sign-out', () => {
  test('/account without a session redirects to sign-in and comes back', async () => {
    const res = await client().get('/account');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${app.url}/sign-in?return_to=%2Faccount`);
  });

  test('/account with a forged or ended session cookie redirects too', async () => {
    const c = client();
    c.cookies.set('session', 'lds_' + 'x'.repeat(43));
    expect((await c.get('/account')).status).toBe(303);
  });

  test('/account shows the address, the API keys link and a sign-out button', async () => {
    const c = client();
    await signInWithClient(c, app.sql, 'account-page@example.test');
    const res = await c.get('/account');
    const page = await res.text();
    expect(page).toContain('account-page@example.test');
    expect(page).toContain('href="/account/api-keys"');
    expect(page).toContain('<form method="post" action="/sign-out">');
    expect(page).toContain('href="/account/connections"'); // the OAuth connections page
  });

  test('sign-out needs the CSRF token, then ends the session and clears the cookie', async () => {
    const c = client();
    await signInWithClient(c, app.sql, 'leaving@example.test');
    const session = c.cookies.get('session')!;
    expect((await c.post('/sign-out', {})).status).toBe(403);
    expect((await c.post('/sign-out', { csrf: await c.csrf('/account') }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await c.get('/account')).status).toBe(200);

    const res = await c.post('/sign-out', { csrf: await c.csrf('/account') });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Signed out');
    expect(res.headers.getSetCookie().find((s) => s.startsWith('session='))).toMatch(/Max-Age=0/i);
    const [row] = await app.sql`select ended_at from sessions where id_hash = ${hashSecret(session)}`;
    expect(row.ended_at).toBeInstanceOf(Date);
    // Even a browser that kept the old cookie is signed out.
    const stale = client();
    stale.cookies.set('session', session);
    expect((await stale.get('/account')).status).toBe(303);
  });

  test('an oversized form is refused (413) and a non-form body is a 400 page', async () => {
    const c = client();
    const csrf = await c.csrf('/sign-in');
    expect((await c.post('/sign-in', { csrf, email: 'x@example.test', pad: 'x'.repeat(70_000) })).status).toBe(413);
    const json = await app.fetch(`${app.url}/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json', origin: app.url }, body: '{}' });
    expect(json.status).toBe(400);
    expect(json.headers.get('content-type')).toContain('text/html');
  });
});

describe('over https', () => {
  let secure: TestApp;
  beforeAll(async () => {
    secure = await startTestApp({ env: { SITE_URL: 'https://directory.test' } });
  });
  afterAll(() => secure.stop());

  test('cookies are __Host- prefixed and Secure', async () => {
    // The edge itself is plain http here; SITE_URL says it is served over https (behind a proxy).
    const c = new WebClient(secure.url);
    const form = await c.get('/sign-in');
    const csrfCookie = form.headers.getSetCookie()[0];
    expect(csrfCookie).toMatch(/^__Host-csrf=/);
    expect(csrfCookie).toMatch(/; Secure/i);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1];
    const origin = 'https://directory.test';
    expect((await c.post('/sign-in', { csrf, email: 'tls@example.test' }, { origin })).status).toBe(200);
    const link = new URL(await latestSignInLink(secure.sql, 'tls@example.test'));
    expect(link.origin).toBe(origin);
    const res = await c.post('/sign-in/verify', { csrf, token: link.searchParams.get('token')! }, { origin });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${origin}/account`);
    const session = res.headers.getSetCookie().find((s) => s.startsWith('__Host-session='))!;
    expect(session).toMatch(/; Secure/i);
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/Path=\//);
    expect(session).not.toMatch(/Domain=/i);
    // The plain-http origin of the same server is another origin for the CSRF check.
    expect((await c.post('/sign-out', { csrf }, { origin: secure.url })).status).toBe(403);
  });
});
