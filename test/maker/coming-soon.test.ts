import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../harness.ts';
import { signInWithClient, WebClient } from '../browser.ts';
import { makeCategory, makeListing } from '../builders.ts';
import { page, startOwnerSite, type OwnerSite } from '../owner-site.ts';
import { goLive } from '../../core/listings/publishing.ts';
import { createSafeFetcher } from '../../core/net/ssrf-fetch.ts';

// The coming-soon page at a queued listing's profile_url: who sees it, what it says, "notify me",
// and the one mail at launch.

let app: TestApp;
let home: OwnerSite;
const ids: Record<string, number> = {};
const EVIL = `<script>alert(1)</script>"><img src=x onerror=alert(2)>`;
const nextWeek = (weeks: number) => `date_trunc('week', now() at time zone 'utc')::date + ${weeks * 7}`;

beforeAll(async () => {
  home = startOwnerSite();
  app = await startTestApp({
    socket: false,
    env: { ALLOW_LOOPBACK_FETCH: 'true' },
    prepare: async (sql, siteId) => {
      const cat = await makeCategory(sql, { slug: 'tools', name: 'Tools' });
      for (const [slug, status, weeks] of [
        ['soon', 'scheduled', 3],
        ['waiting', 'awaiting_badge', 7],
        ['unpublished', 'draft', null],
      ] as const) {
        const l = await makeListing(sql, {
          siteId,
          slug,
          name: `Name ${slug} ${EVIL}`,
          status,
          categoryId: cat.id,
          url: slug === 'soon' ? home.url : undefined,
          columns: { tagline: `Tagline ${slug} ${EVIL}`, ...(weeks ? { launch_week: sql.unsafe(nextWeek(weeks)) } : {}) },
        });
        ids[slug] = l.id;
      }
    },
  });
}, 120_000);
afterAll(async () => {
  home?.stop();
  await app?.stop();
});

describe('coming-soon page', () => {
  test('a scheduled or awaiting-badge listing answers its profile_url with name, tagline, week, noindex; a draft stays a 404', async () => {
    for (const slug of ['soon', 'waiting']) {
      const res = await app.fetch(`${app.url}/listings/${slug}`, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<meta name="robots" content="noindex"/>');
      expect(html).toContain('Coming soon');
      expect(html).toContain(`Name ${slug} &lt;script>alert(1)&lt;/script>`);
      expect(html).not.toContain('<script>alert(1)');
      expect(html).not.toContain('<img src=x');
      const [{ week }] = await app.sql`select to_char(launch_week, 'YYYY-MM-DD') as week from listings where id = ${ids[slug]}`;
      expect(html).toContain(`href="/launches/weeks/${week}"`);
      expect(html).toContain(`href="/sign-in?return_to=${encodeURIComponent(`/listings/${slug}`)}"`);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect((await app.fetch(`${app.url}/listings/unpublished`, { headers: { accept: 'text/html' } })).status).toBe(404);
    // Not a ranking: the upcoming tab lists it without a position.
    const upcoming = await (await app.fetch(`${app.url}/launches?section=upcoming`)).text();
    expect(upcoming).toContain('href="/listings/soon"');
    expect(upcoming).not.toContain('class="rank"');
    expect(upcoming).toContain('<ul class="cards">');
  });

  test('notify me follows the listing through a plain form; at launch each follower gets one mail', async () => {
    const c = new WebClient(app.url, app.fetch);
    await signInWithClient(c, app.sql, 'fan@example.test');
    let html = await (await c.get('/listings/soon')).text();
    expect(html).toContain('Notify me at launch');
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1];
    const res = await c.post('/listings/soon/notify', { csrf, do: 'add' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${app.url}/listings/soon`);
    html = await (await c.get('/listings/soon')).text();
    expect(html).toContain('You will be notified');
    // A draft cannot be followed this way.
    await c.post('/listings/unpublished/notify', { csrf, do: 'add' });
    const follows =
      await app.sql`select l.slug from follows f join listings l on l.id = f.listing_id join users u on u.id = f.user_id where u.email = 'fan@example.test'`;
    expect(follows.map((r) => r.slug)).toEqual(['soon']);

    // The week begins with the badge on the homepage: live, and the follower is told once.
    home.home = page(`<a href="${app.url}/listings/soon"><img src="${app.url}/badges/soon/listed.svg" alt="Listed"></a>`);
    await app.sql`update listings set launch_week = date_trunc('week', now() at time zone 'utc')::date where id = ${ids.soon}`;
    const fetcher = createSafeFetcher({ allowLoopback: true, userAgent: 'test', timeoutMs: 5000, maxBytes: 2_000_000 });
    expect(await goLive(app.sql, fetcher, ids.soon, true)).toBe('live');
    expect(await goLive(app.sql, fetcher, ids.soon, true)).toBe('live');
    const mails = await app.sql`select subject, body_text from mail_outbox where to_address = 'fan@example.test' and kind = 'listing_launched'`;
    expect(mails.length).toBe(1);
    expect(mails[0].body_text).toContain(`${app.url}/listings/soon`);
  });
});
