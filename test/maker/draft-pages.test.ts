import { describe, expect, test } from 'bun:test';
import { draftsEnv, settled } from '../drafts/env.ts';
import { signInWithClient, WebClient } from '../browser.ts';

// Submitting on the site and the draft page, as plain form POSTs (the no-JavaScript path): every
// form runs the API's own operation, so its rules and messages are the API's.

const { env, until } = draftsEnv({ socket: false });
const EVIL = `<script>alert(1)</script>"><img src=x onerror=alert(2)>`;
const REFRESH = '<noscript><meta http-equiv="refresh" content="3"/></noscript>';
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1];

async function maker(email: string) {
  const c = new WebClient(env.app.url, env.app.fetch);
  await signInWithClient(c, env.app.sql, email);
  return c;
}

describe('submit and draft pages', () => {
  let id = '';
  let c: WebClient;

  test('signed out, /submit goes to sign-in and comes back to /submit', async () => {
    const anon = new WebClient(env.app.url, env.app.fetch);
    const res = await anon.get('/submit');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${env.app.url}/sign-in?return_to=${encodeURIComponent('/submit')}`);
    const back = await signInWithClient(anon, env.app.sql, 'owner@example.com', '/submit');
    expect(back.headers.get('location')).toBe(`${env.app.url}/submit`);
    expect((await anon.get('/submit')).status).toBe(200);
  });

  test('a bad address is a plain message on the form; a good one redirects to the draft page', async () => {
    c = await maker('owner@example.com');
    let html = await (await c.get('/submit')).text();
    expect(html).toContain('Website address');
    const csrf = csrfOf(html);
    const bad = await c.post('/submit', { csrf, url: 'ftp://files.example.com' });
    expect(bad.status).toBe(400);
    html = await bad.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('value="ftp://files.example.com"');
    const ok = await c.post('/submit', { csrf, url: env.site.url });
    expect(ok.status).toBe(303);
    const loc = ok.headers.get('location')!;
    expect(loc).toMatch(new RegExp(`^${env.app.url}/me/drafts/[0-9a-f-]{36}$`));
    id = loc.split('/').pop()!;
    // The progress JSON the page script polls; the page itself refreshes without JavaScript.
    const first = await (await c.get(`/me/drafts/${id}/progress`)).json();
    expect(['crawling', 'drafting', 'ready']).toContain(first.status);
    const page = await (await c.get(`/me/drafts/${id}`)).text();
    // The page's own status, not the earlier poll's: the draft may have become ready in between.
    if (!page.includes('data-status="ready"')) expect(page).toContain(REFRESH);
    expect(page).toContain('src="/assets/maker.js"');
  });

  test('while its site is still being read, the draft page refreshes itself without JavaScript', async () => {
    // A site that answers only when released holds the draft in its crawl for as long as needed.
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const held = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: async () => {
        await gate;
        return new Response('<html><body><h1>Held</h1></body></html>', { headers: { 'content-type': 'text/html' } });
      },
    });
    try {
      const csrf = csrfOf(await (await c.get('/submit')).text());
      const res = await c.post('/submit', { csrf, url: `http://127.0.0.1:${held.port}/` });
      expect(res.status).toBe(303);
      const page = await (await c.get(new URL(res.headers.get('location')!).pathname)).text();
      expect(page).not.toContain('data-status="ready"');
      expect(page).toContain(REFRESH);
    } finally {
      release();
      held.stop(true);
    }
  });

  test('ready: every field with its value, state and evidence quote linking to its page', async () => {
    const d = await until(id, settled, 'ready');
    expect(d.status).toBe('ready');
    const p = await (await c.get(`/me/drafts/${id}/progress`)).json();
    expect(p).toMatchObject({ status: 'ready', busy: false });
    const html = await (await c.get(`/me/drafts/${id}`)).text();
    const name = d.fields.name;
    expect(html).toContain(`value="${name.value}"`);
    const ev = name.evidence[0];
    expect(html).toContain(`<q>${ev.quote.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</q>`);
    expect(html).toContain(`href="${new URL(ev.url).href}"`);
    expect(html).toContain('State: <span class="tag">AI</span>');
    expect(html).not.toContain('http-equiv="refresh"');
  });

  test('edit, lock, restore and regenerate in place, with update_draft rules and errors', async () => {
    const csrf = csrfOf(await (await c.get(`/me/drafts/${id}`)).text());
    let res = await c.post(`/me/drafts/${id}/field`, { csrf, field: 'tagline', do: 'save', value: 'Notes that think with you' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${env.app.url}/me/drafts/${id}#field-tagline`);
    let d = (await env.app.sql`select fields->'tagline' as f from drafts where id = ${id}`)[0].f;
    expect(d).toMatchObject({ value: 'Notes that think with you', state: 'edited' });
    res = await c.post(`/me/drafts/${id}/field`, { csrf, field: 'tagline', do: 'lock' });
    expect(res.status).toBe(303);
    expect((await env.app.sql`select fields->'tagline'->>'state' as s from drafts where id = ${id}`)[0].s).toBe('override');
    // update_draft's rule: a locked part cannot be regenerated (409), shown on the page.
    res = await c.post(`/me/drafts/${id}/field`, { csrf, field: 'tagline', do: 'regenerate' });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain('role="alert"');
    res = await c.post(`/me/drafts/${id}/field`, { csrf, field: 'tagline', do: 'restore' });
    expect(res.status).toBe(303);
    expect((await env.app.sql`select fields->'tagline'->>'state' as s from drafts where id = ${id}`)[0].s).toBe('ai');
    // A typed value breaking a field's rule: the API's 400 message, naming the field.
    res = await c.post(`/me/drafts/${id}/field`, { csrf, field: 'contact_email', do: 'save', value: 'not an address' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('contact_email');
    // List fields: one item per line.
    res = await c.post(`/me/drafts/${id}/field`, { csrf, field: 'features', do: 'save', value: 'Fast search\r\n\r\nOffline mode\n' });
    expect(res.status).toBe(303);
    d = (await env.app.sql`select fields->'features'->'value' as v from drafts where id = ${id}`)[0].v;
    expect(d).toEqual(['Fast search', 'Offline mode']);
    res = await c.post(`/me/drafts/${id}/field`, { csrf, field: 'description', do: 'regenerate' });
    expect(res.status).toBe(303);
    const html = await (await c.get(`/me/drafts/${id}`)).text();
    expect(html).toMatch(/Redrafting: description\.|Ready: /);
  });

  test('company links are edited as a section, with the platform rules of update_draft', async () => {
    const csrf = csrfOf(await (await c.get(`/me/drafts/${id}`)).text());
    let res = await c.post(`/me/drafts/${id}/socials`, { csrf, github: 'https://github.com/lumen', x: '' });
    expect(res.status).toBe(303);
    const [row] = await env.app.sql`select company_socials as s from drafts where id = ${id}`;
    expect(['manual', 'edited']).toContain(row.s.state);
    expect(row.s.value.github.value).toBe('https://github.com/lumen');
    res = await c.post(`/me/drafts/${id}/socials`, { csrf, github: 'https://gitlab.com/lumen' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('company_socials');
  });

  test('hostile values are shown as text on the draft page', async () => {
    const csrf = csrfOf(await (await c.get(`/me/drafts/${id}`)).text());
    for (const [f, v] of [
      ['tagline', EVIL],
      ['name', `Quill" onmouseover="alert(3)`],
      ['city', 'javascript:alert(4)'],
    ])
      expect((await c.post(`/me/drafts/${id}/field`, { csrf, field: f, do: 'save', value: v })).status).toBe(303);
    // Evidence is crawled text: a quote that breaks out and a page URL that is javascript: stay inert.
    await env.app
      .sql`update drafts set fields = jsonb_set(fields, '{city,evidence}', ${env.app.sql.json([{ quote: EVIL, url: 'javascript:alert(5)' }])}) where id = ${id}`;
    const html = await (await c.get(`/me/drafts/${id}`)).text();
    expect(html).toContain('<q>&lt;script>alert(1)&lt;/script>');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('" onmouseover="');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('&lt;script>alert(1)&lt;/script>');
  });

  test("another person's draft is a 404 on every page and form", async () => {
    const other = await maker('other@example.com');
    expect((await other.get(`/me/drafts/${id}`)).status).toBe(404);
    expect((await other.get(`/me/drafts/${id}/progress`)).status).toBe(404);
    const csrf = csrfOf(await (await other.get('/submit')).text());
    expect((await other.post(`/me/drafts/${id}/field`, { csrf, field: 'tagline', do: 'save', value: 'mine now' })).status).toBe(404);
    expect((await other.post(`/me/drafts/${id}/submit`, { csrf })).status).toBe(404);
    expect((await env.app.sql`select fields->'tagline'->>'value' as v from drafts where id = ${id}`)[0].v).not.toBe('mine now');
  });

  test('invite a co-founder, then Submit turns the draft into a listing', async () => {
    await until(id, (d) => d.regenerating.length === 0, 'redrafts done');
    const csrf = csrfOf(await (await c.get(`/me/drafts/${id}`)).text());
    let res = await c.post(`/me/drafts/${id}/invite`, { csrf, email: 'cofounder@example.com' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Invitation sent to cofounder@example.com.');
    res = await c.post(`/me/drafts/${id}/invite`, { csrf, email: 'nope' });
    expect(res.status).toBe(400);
    res = await c.post(`/me/drafts/${id}/submit`, { csrf });
    expect(res.status).toBe(303);
    const [l] = await env.app.sql`select listing_id::int as id from drafts where id = ${id}`;
    expect(res.headers.get('location')).toBe(`${env.app.url}/me/listings/${l.id}`);
    // The hostile draft values, now the listing's, are text on the dashboard too.
    for (const path of ['/me/listings', `/me/listings/${l.id}`]) {
      const html = await (await c.get(path)).text();
      expect(html).toContain('Quill&quot; onmouseover=&quot;alert(3)');
      expect(html).not.toContain('" onmouseover="');
      expect(html).not.toContain('<script>alert(1)');
      expect(html).not.toContain('<img src=x');
      expect(html).not.toContain('href="javascript:');
    }
  });
});
