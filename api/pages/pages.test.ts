import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eventually } from '../../test/eventually.ts';
import { seedDemo } from '../../seeds/demo.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { signInWithClient, WebClient } from '../../test/browser.ts';

// Public pages against the seeded demo database, compared with the API's answer for the same object.

const EVIL = `<script>alert(1)</script>"><img src=x onerror=alert(2)>'`;
let app: TestApp;
const hostileSlug = 'hostile-listing';
/** Text as Preact escapes it in element text and attribute values. */
const escaped = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      await seedDemo(sql, siteId);
      const [owner] = await sql`insert into users (email, name) values ('owner-hostile@example.test', ${EVIL}) returning id`;
      const [reviewer] = await sql`insert into users (email, name) values ('reviewer-hostile@example.test', ${EVIL}) returning id`;
      const [co] = await sql`insert into companies (name, domain, website_url) values ('Hostile', 'hostile.test', 'https://hostile.test') returning id`;
      const [cat] = await sql`select id from categories order by id limit 1`;
      const [l] = await sql`insert into listings ${sql({
        site_id: siteId,
        company_id: co.id,
        owner_user_id: owner.id,
        slug: hostileSlug,
        name: `Hostile ${EVIL}`,
        url: 'javascript:alert(3)',
        domain: 'hostile.test',
        tagline: EVIL,
        description: `Desc ${EVIL}`,
        status: 'live',
        primary_category_id: cat.id,
        launch_week: sql`date_trunc('week', now())::date` as never,
        launched_at: sql`now()` as never,
        features: [EVIL],
        logo_url: 'javascript:alert(4)',
      } as never)} returning id`;
      await sql`insert into listing_categories (listing_id, category_id, is_primary) values (${l.id}, ${cat.id}, true)`;
      await sql`insert into listing_socials (listing_id, platform, url) values (${l.id}, 'x', 'javascript:alert(5)')`;
      const [f] =
        await sql`insert into founders (slug, name, title, bio, socials) values ('hostile-founder', ${EVIL}, ${EVIL}, ${EVIL}, ${sql.json({ x: 'javascript:alert(6)' })}) returning id`;
      await sql`insert into listing_founders (listing_id, founder_id, role) values (${l.id}, ${f.id}, ${EVIL})`;
      await sql`insert into reviews (listing_id, user_id, rating, body) values (${l.id}, ${reviewer.id}, 4, ${EVIL})`;
      await sql`insert into listing_updates (listing_id, title, body) values (${l.id}, ${EVIL}, ${EVIL})`;
      await sql`insert into listing_faqs (listing_id, position, question, answer) values (${l.id}, 0, ${EVIL}, ${EVIL})`;
    },
  });
}, 120_000);
afterAll(() => app.stop());

const page = async (path: string, init?: RequestInit) => {
  const res = await app.fetch(app.url + path, init);
  return { res, text: await res.text() };
};
const api = async (path: string) => (await app.json(path)).body;

describe('public pages render what the API answers', () => {
  test('home: this week ranked by votes, trending, upcoming, newest updates; name and navigation', async () => {
    const { res, text } = await page('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const week = await api('/launches/weeks/this?per_page=20');
    const trending = await api('/launches?section=trending&per_page=10');
    const upcoming = await api('/launches?section=upcoming&per_page=6');
    expect(text).toContain('<a class="brand" href="/">Launchpad Directory</a>');
    let at = -1;
    for (const item of week.items) {
      // in rank order
      const i = text.indexOf(`href="/listings/${item.listing.slug}"`, at + 1);
      expect(i).toBeGreaterThan(at);
      at = i;
    }
    for (const item of [...trending.items, ...upcoming.items]) expect(text).toContain(`href="/listings/${item.slug}"`);
    for (const h of ['Featured', "This week's launches", 'Trending', 'Upcoming', 'Newest updates']) expect(text).toContain(`>${h}</h2>`);
  });

  test("every profile_url the API returns is a 200 listing page with the profile's sections", async () => {
    const urls = new Set<string>();
    for (const path of [
      '/listings?per_page=100',
      '/launches?section=trending&per_page=50',
      '/launches?section=upcoming&per_page=50',
      '/leaderboards/billboard',
      '/awards?per_page=50',
    ]) {
      const body = await api(path);
      for (const it of body.items) {
        const l = it.listing ?? it;
        if (l.status === 'live') urls.add(l.profile_url);
      }
    }
    expect(urls.size).toBeGreaterThan(50);
    for (const u of [...urls].slice(0, 60)) {
      expect(u.startsWith(app.url + '/listings/')).toBe(true);
      expect((await app.fetch(u)).status).toBe(200);
    }
    const slug = [...urls][0].split('/').pop()!;
    const l = await api(`/listings/${slug}`);
    const { text } = await page(`/listings/${slug}`);
    expect(text).toContain(`<h1>${l.name}</h1>`);
    for (const f of l.features) expect(text).toContain(`<li>${f}</li>`);
    for (const c of l.categories) expect(text).toContain(`href="/categories/${c.slug}"`);
    for (const f of l.founders) expect(text).toContain(`href="/founders/${f.slug}"`);
    for (const s of ['About', 'Pricing', 'Community rating', 'Domain Rating', 'Badges', 'Alternatives', 'Reviews']) expect(text).toContain(`>${s}</h2>`);
    if (l.domain_rating) expect(text).toContain(`<strong>${l.domain_rating.rating}</strong> / 100`);
    expect(text).toContain(`<link rel="canonical" href="${l.profile_url}"/>`);
    const badges = await api(`/listings/${slug}/badges`);
    expect(text).toContain(badges.items[0].svg_url.replace(/&/g, '&amp;'));
    // story/milestones/media only where unlocked
    expect(text.includes('id="story"')).toBe(l.story !== null);
    expect(text.includes('id="milestones"')).toBe(l.milestones !== null);
    expect(text.includes('id="media"')).toBe(l.media !== null);
  });

  test('launch week with previous/next week, sections, leaderboards (billboard marked paid), categories, founders, blog, awards, updates, products', async () => {
    const week = await api('/launches/weeks/last');
    let r = await page(`/launches/weeks/${week.week}`);
    expect(r.res.status).toBe(200);
    expect(r.text).toContain(`>Previous week</a>`);
    for (const it of week.items) expect(r.text).toContain(`href="/listings/${it.listing.slug}"`);
    for (const s of ['today', 'this-week', 'trending', 'most-voted', 'recent', 'most-viewed', 'most-followed', 'upcoming']) {
      const a = await api(`/launches?section=${s}`);
      r = await page(`/launches?section=${s}`);
      expect(r.res.status).toBe(200);
      for (const it of a.items) expect(r.text).toContain(`href="/listings/${it.slug}"`);
    }
    for (const b of ['community-weekly', 'community-all-time', 'billboard', 'domain-rating', 'revenue']) {
      const a = await api(`/leaderboards/${b}`);
      r = await page(`/leaderboards/${b}`);
      expect(r.res.status).toBe(200);
      for (const it of a.items) expect(r.text).toContain(`href="/listings/${it.listing.slug}"`);
      expect(r.text.includes('Paid ranking.')).toBe(b === 'billboard');
    }
    const cats = await api('/categories');
    r = await page('/categories');
    for (const c of cats.items) expect(r.text).toContain(`href="/categories/${c.slug}"`);
    const cat = await api(`/categories/${cats.items[0].slug}`);
    r = await page(`/categories/${cat.slug}`);
    for (const it of cat.listings.items) expect(r.text).toContain(`href="/listings/${it.slug}"`);
    const founders = await api('/founders');
    r = await page('/founders');
    for (const f of founders.items) expect(r.text).toContain(`href="/founders/${f.slug}"`);
    const founder = await api(`/founders/${founders.items[0].slug}`);
    r = await page(`/founders/${founder.slug}`);
    for (const c of founder.companies) expect(r.text).toContain(`href="/listings/${c.slug}"`);
    expect(r.text).toContain('"@type":"Person"');
    const blog = await api('/blog');
    r = await page('/blog');
    for (const p of blog.items) expect(r.text).toContain(`href="/blog/${p.slug}"`);
    for (const p of blog.items) {
      const res = await app.fetch(p.url);
      expect(res.status).toBe(200);
      const t = await res.text();
      expect(t).toContain('"@type":"BlogPosting"');
    }
    r = await page(`/blog/launch-week-checklist`);
    expect(r.text).toContain('<strong>before</strong>'); // Markdown rendered
    const awards = await api('/awards');
    r = await page('/awards');
    for (const a of awards.items) expect(r.text).toContain(`href="/listings/${a.listing.slug}"`);
    r = await page('/updates');
    expect(r.res.status).toBe(200);
    const products = await api('/products');
    r = await page('/pricing');
    for (const p of products.items) expect(r.text).toContain(`<h2>${p.name}</h2>`);
  });

  test("search uses the API's typo tolerance and filters; compare shows both", async () => {
    const a = await api('/listings?q=schedulr&per_page=20');
    expect(a.total).toBeGreaterThan(0); // "schedulr" finds "scheduler" listings: the typo tolerance is the API's
    const { text } = await page('/search?q=schedulr');
    expect(text).toContain(`${a.total} ${a.total === 1 ? 'listing' : 'listings'}`);
    for (const it of a.items) expect(text).toContain(`href="/listings/${it.slug}"`);
    const f = await api('/listings?category=developer-tools&sort=newest');
    const r = await page('/search?category=developer-tools&sort=newest');
    for (const it of f.items) expect(r.text).toContain(`href="/listings/${it.slug}"`);
    const [x, y] = (await api('/listings?per_page=2')).items;
    const c = await page(`/compare?a=${x.slug}&b=${y.slug}`);
    expect(c.res.status).toBe(200);
    expect(c.text).toContain(`${x.name} vs ${y.name}`);
  });

  test('unknown slugs are a real 404 page; a bad page number is a 400 page', async () => {
    for (const p of [
      '/listings/no-such-listing',
      '/categories/nope',
      '/founders/nope',
      '/blog/nope',
      '/leaderboards/nope',
      '/launches/weeks/not-a-week',
      '/listings/BAD_SLUG',
    ]) {
      const r = await page(p);
      expect([404, 400]).toContain(r.res.status);
      expect(r.res.headers.get('content-type')).toContain('text/html');
      expect(r.text).toContain('<a class="brand" href="/">');
    }
    expect((await page('/listings/no-such-listing')).text).toContain('Page not found');
    expect((await page('/launches?page=0')).res.status).toBe(400);
  });
});

describe('findable', () => {
  test('every page has a unique title, meta description, canonical URL and OpenGraph tags', async () => {
    const paths = [
      '/',
      '/listings/' + hostileSlug,
      '/launches',
      '/launches/weeks/this',
      '/leaderboards',
      '/leaderboards/billboard',
      '/categories',
      '/categories/developer-tools',
      '/founders',
      '/founders/hostile-founder',
      '/blog',
      '/blog/launch-week-checklist',
      '/awards',
      '/search',
      '/compare',
      '/updates',
      '/pricing',
    ];
    const titles = new Set<string>();
    for (const p of paths) {
      const { text } = await page(p);
      const title = /<title>([^<]*)<\/title>/.exec(text)![1];
      expect(titles.has(title)).toBe(false);
      titles.add(title);
      expect(text).toMatch(/<meta name="description" content="[^"]+"\/>/);
      expect(text).toMatch(/<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\/[^"]*"\/>/);
      for (const og of ['og:title', 'og:description', 'og:type', 'og:url', 'og:site_name']) expect(text).toContain(`property="${og}"`);
    }
  });

  test('JSON-LD: SoftwareApplication with AggregateRating from genuine reviews only, BreadcrumbList, FAQPage', async () => {
    const [row] =
      await app.sql`select l.slug from listing_stats s join listings l on l.id = s.listing_id where s.rating_count > 0 and l.status = 'live' and exists (select 1 from listing_faqs f where f.listing_id = l.id) limit 1`;
    const l = await api(`/listings/${row.slug}`);
    const { text } = await page(`/listings/${row.slug}`);
    const blocks = [...text.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map((m) => JSON.parse(m[1]));
    const appLd = blocks.find((b) => b['@type'] === 'SoftwareApplication');
    expect(appLd.aggregateRating).toEqual({
      '@type': 'AggregateRating',
      ratingValue: l.community_rating.average,
      ratingCount: l.community_rating.count,
      bestRating: 5,
      worstRating: 1,
    });
    expect(blocks.some((b) => b['@type'] === 'BreadcrumbList')).toBe(true);
    expect(blocks.some((b) => b['@type'] === 'FAQPage')).toBe(true);
    // The hostile listing's only review is genuine; its owner's name is hostile: JSON-LD never closes the script element.
    const h = await page(`/listings/${hostileSlug}`);
    for (const m of h.text.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)) expect(() => JSON.parse(m[1])).not.toThrow();
  });

  test('sitemap.xml is an index of paged child sitemaps listing every live listing; robots.txt points at it', async () => {
    const index = await page('/sitemap.xml');
    expect(index.res.headers.get('content-type')).toContain('application/xml');
    expect(index.text).toContain('<sitemapindex');
    const children = [...index.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    const listed = new Set<string>();
    for (const c of children) {
      const t = await (await app.fetch(c)).text();
      for (const m of t.matchAll(/<loc>([^<]+)<\/loc>/g)) listed.add(m[1]);
    }
    const live = await app.sql`select slug from listings where site_id = ${app.siteId} and status = 'live'`;
    for (const r of live) expect(listed.has(`${app.url}/listings/${r.slug}`)).toBe(true);
    const notLive = await app.sql`select slug from listings where site_id = ${app.siteId} and status <> 'live' limit 5`;
    for (const r of notLive) expect(listed.has(`${app.url}/listings/${r.slug}`)).toBe(false);
    const robots = await page('/robots.txt');
    expect(robots.text).toContain(`Sitemap: ${app.url}/sitemap.xml`);
  });

  test('Atom feeds carry the right entries, escaped (parsed as XML in test/browser/public-site.test.ts)', async () => {
    const recent = await api('/launches?section=recent&per_page=50');
    const feeds: [string, string[]][] = [
      ['/feeds/launches.xml', recent.items.map((l: any) => l.name)],
      ['/feeds/blog.xml', (await api('/blog?per_page=50')).items.map((p: any) => p.title)],
      [`/feeds/listings/${hostileSlug}.xml`, [EVIL]],
    ];
    for (const [path, titles] of feeds) {
      const r = await page(path);
      expect(r.res.headers.get('content-type')).toContain('application/atom+xml');
      const entries = [...r.text.matchAll(/<entry>[\s\S]*?<title>([^<]*)<\/title>/g)].map((m) =>
        m[1]
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'")
          .replace(/&amp;/g, '&'),
      );
      expect(entries).toEqual(titles);
      expect(r.text).not.toContain('<script>');
    }
  });
});

describe('escaping of hostile listing, founder and review text', () => {
  test('no page carries the hostile markup; javascript: URLs never become links or images', async () => {
    for (const p of [
      '/',
      `/listings/${hostileSlug}`,
      '/founders/hostile-founder',
      '/updates',
      '/launches?section=recent',
      '/search?q=hostile',
      `/compare?a=${hostileSlug}&b=acornsync`,
      '/launches/weeks/this',
    ]) {
      const { res, text } = await page(p);
      expect(res.status).toBe(200);
      expect(text).not.toContain('<script>alert');
      expect(text).not.toContain('<img src=x');
      // Our own images (logos and the view pixel, from our origin) follow other elements; no other <img> does.
      expect(text.replace(/"><img class="(card-logo|logo|px)" src="\/(logos|v)\//g, '')).not.toContain('"><img');
      expect(text).not.toMatch(/(href|src)="javascript:/i);
    }
    const { text } = await page(`/listings/${hostileSlug}`);
    // Preact escapes & < " (enough for element text and double-quoted attributes); > and ' stay as they are.
    expect(escaped(EVIL)).toBe("&lt;script>alert(1)&lt;/script>&quot;>&lt;img src=x onerror=alert(2)>'");
    expect(text).toContain(`<h1>Hostile ${escaped(EVIL)}</h1>`);
    expect(text).toContain(`<meta name="description" content="${escaped(EVIL)}"/>`);
    expect(text).toContain(`<li>${escaped(EVIL)}</li>`); // a feature
    expect(text).toContain(`<p class="text">${escaped(EVIL)}</p>`); // the review and the update
    expect(text).toContain(`<dt>${escaped(EVIL)}</dt><dd>${escaped(EVIL)}</dd>`); // the FAQ
    expect(text).toContain(`<a href="/founders/hostile-founder">${escaped(EVIL)}</a>`);
    // Only the site's own script and the JSON-LD blocks are script elements.
    expect(
      [...text.matchAll(/<script\b[^>]*>/g)]
        .map((m) => m[0])
        .filter((t) => t !== '<script src="/assets/site.js" defer>' && t !== '<script type="application/ld+json">'),
    ).toEqual([]);
    const founder = (await page('/founders/hostile-founder')).text;
    expect(founder).toContain(`<h1>${escaped(EVIL)}</h1>`);
    expect(founder).toContain(`<title>${escaped(EVIL)} | Launchpad Directory</title>`);
    const search = (await page(`/search?q=${encodeURIComponent(EVIL)}`)).text;
    expect(search).toContain(`value="${escaped(EVIL)}"`);
    expect(search).not.toContain('<script>alert');
  });
});

test('/favicon.ico is an icon: an ICO header and a 32x32 image, cached by browsers', async () => {
  const r = await app.fetch(`${app.url}/favicon.ico`, { headers: { accept: 'image/avif,image/webp,*/*' } });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('image/x-icon');
  expect(r.headers.get('cache-control')).toContain('public');
  const bytes = new Uint8Array(await r.arrayBuffer());
  const view = new DataView(bytes.buffer);
  // ICONDIR: reserved 0, type 1 (icon), one image; its entry: 32x32, 32 bits, image at offset 22.
  expect([view.getUint16(0, true), view.getUint16(2, true), view.getUint16(4, true)]).toEqual([0, 1, 1]);
  expect([bytes[6], bytes[7], view.getUint16(12, true)]).toEqual([32, 32, 32]);
  expect(view.getUint32(14, true) + 22).toBe(bytes.length);
  expect(view.getUint32(22, true)).toBe(40); // a BITMAPINFOHEADER follows
  expect((await app.fetch(`${app.url}/favicon.ico`, { headers: { 'if-none-match': r.headers.get('etag')! } })).status).toBe(304);
});

describe('caching and personal state', () => {
  test('anonymous pages carry ETag and public Cache-Control and answer 304; they set no cookies', async () => {
    const r = await app.fetch(`${app.url}/launches`);
    expect(r.headers.get('cache-control')).toContain('public');
    expect(r.headers.get('vary')).toContain('Cookie');
    expect(r.headers.getSetCookie()).toEqual([]);
    const etag = r.headers.get('etag')!;
    expect((await app.fetch(`${app.url}/launches`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  test('a vote shows at once to its voter and never to another person or an anonymous visitor', async () => {
    const [l] = await app.sql`select slug from listings where site_id = ${app.siteId} and status = 'live' and owner_user_id is null order by id limit 1`;
    const path = `/listings/${l.slug}`;
    await app.fetch(app.url + path); // warm the anonymous cache
    const alice = new WebClient(app.url, app.fetch);
    const bob = new WebClient(app.url, app.fetch);
    await signInWithClient(alice, app.sql, 'alice-pages@example.test');
    await signInWithClient(bob, app.sql, 'bob-pages@example.test');
    const csrf = await alice.csrf(path);
    const res = await alice.post(`${path}/vote`, { csrf, do: 'add' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(app.url + path);
    const mine = await alice.get(path);
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    // Never kept, so never revalidated: no ETag to compute.
    expect(mine.headers.get('etag')).toBeNull();
    expect(await mine.text()).toContain('aria-pressed="true">Voted');
    const theirs = await (await bob.get(path)).text();
    expect(theirs).toContain('aria-pressed="false">Upvote');
    expect(theirs).not.toContain('alice-pages');
    const anon = await (await app.fetch(app.url + path)).text();
    expect(anon).not.toContain('Voted');
    expect(anon).not.toContain('alice-pages');
    expect(anon).not.toContain('name="csrf"');
  });
});

describe('unknown addresses and badges', () => {
  test("a browser gets the site's 404 page for an unknown address; API clients keep problem+json", async () => {
    const r = await page('/no/such/page', { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(r.res.status).toBe(404);
    expect(r.text).toContain('Page not found');
    const api404 = await app.fetch(`${app.url}/api/v1/nope`, { headers: { accept: 'text/html' } });
    expect(api404.headers.get('content-type')).toContain('application/problem+json');
  });

  test('badge images work on other sites: SVG content type, public caching, no cookies even for a signed-in person', async () => {
    const [l] = await app.sql`select slug from listings where site_id = ${app.siteId} and status = 'live' order by id limit 1`;
    const badges = await api(`/listings/${l.slug}/badges`);
    const c = new WebClient(app.url, app.fetch);
    await signInWithClient(c, app.sql, 'badge-viewer@example.test');
    const res = await c.get(new URL(badges.items[0].svg_url).pathname + new URL(badges.items[0].svg_url).search);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('image/svg+xml');
    expect(res.headers.get('cache-control')).toContain('public');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.getSetCookie()).toEqual([]);
    // The embed code on the listing page is the API's, with absolute URLs, inside a read-only textarea.
    const { text } = await page(`/listings/${l.slug}`);
    const embed = escaped(badges.items[0].html);
    expect(text).toContain(embed);
    expect(badges.items[0].html).toContain(`href="${app.url}/listings/${l.slug}"`);
  });
});

describe("failures and the API's own URLs", () => {
  test('a failure is a 500 page without internals', async () => {
    await app.sql`alter table listing_updates rename to listing_updates_away`;
    try {
      const r = await page('/updates');
      expect(r.res.status).toBe(500);
      expect(r.res.headers.get('cache-control')).toBe('private, no-store');
      expect(r.res.headers.get('etag')).toBeNull();
      expect(r.text).toContain('Something went wrong');
      expect(r.text).not.toMatch(/listing_updates|relation|stack|at \//i);
    } finally {
      await app.sql`alter table listing_updates_away rename to listing_updates`;
    }
    expect((await page('/updates')).res.status).toBe(200);
  });

  test('the site URLs get_site_info returns are pages', async () => {
    const site = await api('/site');
    for (const u of [site.urls.home, site.urls.docs]) expect((await app.fetch(u)).status).toBe(200);
  });
});

describe('shared cache invalidation', () => {
  test('an anonymous page cached before a change shows the change once directory_changed() is announced', async () => {
    const before = await page('/updates');
    expect(before.res.headers.get('cache-control')).toContain('public');
    const [l] = await app.sql`select id from listings where site_id = ${app.siteId} and status = 'live' order by id limit 1`;
    await app.sql.begin(async (tx) => {
      await tx`insert into listing_updates (listing_id, title, body, created_at) values (${l.id}, 'Invalidation marker', 'Fresh news', now() + interval '1 hour')`;
      await tx`select directory_changed()`;
    });
    const text = await eventually(
      async () => (await page('/updates')).text,
      (t) => t.includes('Invalidation marker'),
    );
    expect(text).toContain('Invalidation marker');
  });
});
