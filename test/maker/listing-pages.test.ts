import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { makeListing, ownersEnv } from '../owners/env.ts';
import { page, startOwnerSite, type OwnerSite } from '../owner-site.ts';
import { signInWithClient, WebClient } from '../browser.ts';

// The maker's dashboard and a listing's page as plain form POSTs: publishing free, the badge's
// embed code, "Check now" (at most one a minute, saying what it found), profile edits, updates,
// milestones and the story; someone else's listing is a 404 everywhere.

const { env, call } = ownersEnv({ socket: false });
let site: OwnerSite;
let c: WebClient;
let id = 0;
const EVIL = `<script>alert(1)</script>"><img src=x onerror=alert(2)>`;
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1];

beforeAll(async () => {
  site = startOwnerSite();
  id = await makeListing(env.app.sql, { siteId: env.app.siteId, userId: env.userIds.owner, url: site.url, name: `Quill ${EVIL}` });
  c = new WebClient(env.app.url, env.app.fetch);
  await signInWithClient(c, env.app.sql, 'owner@example.com');
});
afterAll(() => site?.stop());

const slugOf = async () => (await env.app.sql`select slug from listings where id = ${id}`)[0].slug as string;

describe('dashboard', () => {
  test('lists the listing with its status and next step, escaped; /me and the account page lead there', async () => {
    const html = await (await c.get('/me/listings')).text();
    expect(html).toContain(`href="/me/listings/${id}"`);
    expect(html).toContain('Not published yet: publish it free');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('Quill &lt;script>alert(1)&lt;/script>');
    expect(html).toContain('<header class="top">'); // the public site's frame
    expect((await c.get('/me')).headers.get('location')).toBe(`${env.app.url}/me/listings`);
    expect(await (await c.get('/account')).text()).toContain('href="/me/listings"');
  });

  test("another person's listing is a 404 on the page and its forms", async () => {
    const other = new WebClient(env.app.url, env.app.fetch);
    await signInWithClient(other, env.app.sql, 'other@example.com');
    expect((await other.get(`/me/listings/${id}`)).status).toBe(404);
    const csrf = csrfOf(await (await other.get('/submit')).text());
    expect((await other.post(`/me/listings/${id}/free`, { csrf })).status).toBe(404);
    expect((await other.post(`/me/listings/${id}/profile`, { csrf, tagline: 'hijacked' })).status).toBe(404);
    expect((await env.app.sql`select status from listings where id = ${id}`)[0].status).toBe('draft');
  });

  test('publish free: the weeks with room, then the embed code and Check now with what it found', async () => {
    let html = await (await c.get(`/me/listings/${id}`)).text();
    const weeks = [...html.matchAll(/name="week" value="(\d{4}-\d{2}-\d{2})"/g)].map((m) => m[1]);
    expect(weeks.length).toBe(3); // 6 to 8 weeks out, each with room
    // A week outside the window: the API's 400 naming week, shown on the page; nothing queued.
    let res = await c.post(`/me/listings/${id}/free`, { csrf: csrfOf(html), week: '2020-01-06' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('week');
    expect((await env.app.sql`select status from listings where id = ${id}`)[0].status).toBe('draft');
    res = await c.post(`/me/listings/${id}/free`, { csrf: csrfOf(html), week: weeks[2] });
    expect(res.status).toBe(303);
    expect((await env.app.sql`select to_char(launch_week, 'YYYY-MM-DD') as w from listings where id = ${id}`)[0].w).toBe(weeks[2]);
    // The same choice over REST: a full week is 409 free_week_full, and the listing stays unpublished.
    const [{ slots }] = await env.app.sql`select launch_slots_per_week as slots from sites where id = ${env.app.siteId}`;
    await env.app.sql`update sites set launch_slots_per_week = 1 where id = ${env.app.siteId}`;
    const second = await makeListing(env.app.sql, { siteId: env.app.siteId, userId: env.userIds.owner });
    const full = await call('POST', `/me/listings/${second}/free`, { week: weeks[2] });
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('free_week_full');
    expect((await env.app.sql`select status from listings where id = ${second}`)[0].status).toBe('draft');
    await env.app.sql`update sites set launch_slots_per_week = ${slots} where id = ${env.app.siteId}`;
    html = await (await c.get(res.headers.get('location')!)).text();
    expect(html).toContain('Queued for its launch week.');
    // The note is named by a key: a link cannot put its own words on the page.
    expect(await (await c.get(`/me/listings/${id}?done=Your+account+is+locked`)).text()).not.toContain('Your account is locked');
    expect(html).toContain('<label for="embed">Embed code</label>');
    const slug = await slugOf();
    expect(html).toContain(`href=&quot;${env.app.url}/listings/${slug}&quot;`);
    // The badge's link is the coming-soon page, not a 404.
    expect((await env.app.fetch(`${env.app.url}/listings/${slug}`, { headers: { accept: 'text/html' } })).status).toBe(200);

    site.home = page('<h1>Quill</h1><a href="/pricing">Pricing</a><a href="https://example.org/">Partner</a>');
    await env.app.sql`update listings set badge_checked_at = null where id = ${id}`;
    const dashboard = await (await c.get('/me/listings')).text();
    expect(dashboard).toContain(`action="/me/listings/${id}/check"`);
    const csrf = csrfOf(html);
    res = await c.post(`/me/listings/${id}/check`, { csrf });
    expect(res.status).toBe(200);
    html = await res.text();
    expect(html).toContain(`Badge not found. no link to /listings/${slug} on ${site.url}; found 2 other links`);
    // A second press within the minute: the precise reason, and nothing fetched.
    const hits = site.hits.length;
    res = await c.post(`/me/listings/${id}/check`, { csrf });
    expect(res.status).toBe(429);
    expect(await res.text()).toMatch(/checked \d+ seconds ago; a check on request runs at most once a minute\. Try again in \d+ seconds\./);
    expect(site.hits.length).toBe(hits);

    const badge = (await call('GET', `/me/listings/${id}`)).body.badge.html as string;
    site.home = page(`<h1>Quill</h1><footer>${badge}</footer>`);
    await env.app.sql`update listings set badge_checked_at = now() - interval '2 minutes' where id = ${id}`;
    res = await c.post(`/me/listings/${id}/check`, { csrf });
    expect(await res.text()).toMatch(/Badge found: scheduled for the week of \d{4}-\d{2}-\d{2}\./);
    expect((await env.app.sql`select status from listings where id = ${id}`)[0].status).toBe('scheduled');
    // The same operation over REST: too soon now.
    const rest = await call('POST', `/me/listings/${id}/badge-check`);
    expect(rest.status).toBe(429);
    expect(rest.body.code).toBe('badge_check_too_soon');
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('profile edits are versioned and escaped; API errors are shown on the page', async () => {
    let html = await (await c.get(`/me/listings/${id}`)).text();
    const csrf = csrfOf(html);
    let res = await c.post(`/me/listings/${id}/profile`, { csrf, tagline: EVIL, features: 'Fast\n\nSimple\n', founded_year: '2021' });
    expect(res.status).toBe(303);
    const [row] = await env.app.sql`select tagline, features, founded_year from listings where id = ${id}`;
    expect(row).toEqual({ tagline: EVIL, features: ['Fast', 'Simple'], founded_year: 2021 });
    expect((await env.app.sql`select count(*)::int as n from listing_versions where listing_id = ${id}`)[0].n).toBeGreaterThan(0);
    html = await (await c.get(`/me/listings/${id}`)).text();
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    // The history: who changed what, before and after.
    expect(html).toContain('owner@example.com (update_my_listing)');
    expect(html).toContain('Tagline: <del>(empty)</del> → <ins>&lt;script>alert(1)&lt;/script>');
    res = await c.post(`/me/listings/${id}/profile`, { csrf, contact_email: 'nope' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('contact_email');
  });

  test('updates, milestones (add and delete) and the founder story', async () => {
    const csrf = csrfOf(await (await c.get(`/me/listings/${id}`)).text());
    expect((await c.post(`/me/listings/${id}/updates`, { csrf, title: 'v2 is out', body: 'Faster sync.' })).status).toBe(303);
    expect((await env.app.sql`select title from listing_updates where listing_id = ${id}`).map((r) => r.title)).toEqual(['v2 is out']);
    expect((await c.post(`/me/listings/${id}/milestones`, { csrf, date: '2026-01-05', title: 'First customer', url: '' })).status).toBe(303);
    const [m] = await env.app.sql`select id::int from milestones where listing_id = ${id}`;
    expect(await (await c.get(`/me/listings/${id}`)).text()).toContain('2026-01-05: First customer');
    expect((await c.post(`/me/listings/${id}/milestones`, { csrf, date: 'soon', title: 'x' })).status).toBe(400);
    expect((await c.post(`/me/listings/${id}/milestones/${m.id}/delete`, { csrf })).status).toBe(303);
    expect((await env.app.sql`select count(*)::int as n from milestones where listing_id = ${id}`)[0].n).toBe(0);
    expect((await c.post(`/me/listings/${id}/story`, { csrf, title: 'How we began', story: 'In a garage.' })).status).toBe(303);
    const [s] = await env.app.sql`select title, story from founder_stories where listing_id = ${id}`;
    expect(s).toEqual({ title: 'How we began', story: 'In a garage.' });
    expect(await (await c.get(`/me/listings/${id}`)).text()).toContain('In a garage.');
  });

  test('a change a re-crawl proposes is accepted or declined with a button', async () => {
    await env.app.sql`insert into listing_findings (listing_id, field, kind, value, evidence) values
      (${id}, 'pricing_model', 'proposed', ${env.app.sql.json('Freemium')}, '[]'),
      (${id}, 'city', 'proposed', ${env.app.sql.json('Lyon')}, '[]')`;
    await env.app.sql`update listings set city = 'Paris' where id = ${id}`;
    const html = await (await c.get(`/me/listings/${id}`)).text();
    expect(html).toContain('your site now says <q>Freemium</q>');
    const csrf = csrfOf(html);
    expect((await c.post(`/me/listings/${id}/proposal`, { csrf, field: 'pricing_model', do: 'accept' })).status).toBe(303);
    expect((await c.post(`/me/listings/${id}/proposal`, { csrf, field: 'city', do: 'reject' })).status).toBe(303);
    const [row] = await env.app.sql`select pricing_model, city from listings where id = ${id}`;
    expect(row).toEqual({ pricing_model: 'Freemium', city: 'Paris' });
    expect((await env.app.sql`select count(*)::int as n from listing_findings where listing_id = ${id} and kind = 'proposed'`)[0].n).toBe(0);
  });

  test('the founder interview is answered on a form (answer_interview)', async () => {
    const [q] = await env.app.sql`insert into interview_questions (question, position, active) values ('Why did you start?', 1, true) returning id`;
    let html = await (await c.get('/me/interview')).text();
    expect(html).toContain('Why did you start?');
    const res = await c.post('/me/interview', { csrf: csrfOf(html), [`answer:${q.id}`]: `Because ${EVIL}` });
    expect(res.status).toBe(303);
    html = await (await c.get('/me/interview?saved')).text();
    expect(html).toContain('Answers saved.');
    expect(html).toContain('Because &lt;script>alert(1)&lt;/script>');
    expect((await env.app.sql`select answer from interview_answers where question_id = ${q.id}`)[0].answer).toBe(`Because ${EVIL}`);
  });
});
