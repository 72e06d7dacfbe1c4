// Logos and share images: fetched from a local site through the SSRF-safe fetcher, checked,
// rasterised (SVG too) and resized with sharp, served from our own origin with long caching, an
// initials tile when there is none; the 1200x630 share image in og:image. Then the demo site in
// Chromium at 1280 and 390 px: every image on the home, a category and a listing page loads.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdir } from 'node:fs/promises';
import sharp from 'sharp';
import { seedDemo } from '../../seeds/demo.ts';
import { fetchListingLogo, logosDue } from '../../core/images/fetch-logo.ts';
import { listingShareImage } from '../../core/images/serve.ts';
import { createSafeFetcher } from '../../core/net/ssrf-fetch.ts';
import { launchBrowser, type Browser } from '../browser.ts';
import { startTestApp, type TestApp } from '../harness.ts';
import { eventually } from '../eventually.ts';
import { makeListing } from '../owners/env.ts';
import { Logger } from 'graphile-worker';
import { startWorker } from '../../pipeline/worker.ts';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>alert(1)</script><circle cx="5" cy="5" r="5" fill="#e11d48"/></svg>';
const png = await sharp({ create: { width: 300, height: 150, channels: 4, background: '#0ea5e9' } })
  .png()
  .toBuffer();
const site = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(req) {
    const path = new URL(req.url).pathname;
    if (path === '/logo.png') return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png' } });
    // The type is read from the bytes: a PNG served as text/plain is still a PNG; HTML called a PNG is not.
    if (path === '/mislabelled.png') return new Response(new Uint8Array(png), { headers: { 'content-type': 'text/plain' } });
    if (path === '/logo.svg') return new Response(SVG, { headers: { 'content-type': 'image/svg+xml' } });
    if (path === '/fake.png') return new Response('<html>not an image</html>', { headers: { 'content-type': 'image/png' } });
    return new Response('no', { status: 404 });
  },
});
const base = `http://127.0.0.1:${site.port}`;
const fetcher = createSafeFetcher({ allowLoopback: true, userAgent: 'test', timeoutMs: 5000, maxBytes: 2_000_000 });
const strictFetcher = createSafeFetcher({ allowLoopback: false, userAgent: 'test', timeoutMs: 5000, maxBytes: 2_000_000 });

let app: TestApp;
let browser: Browser;
const ids: Record<string, number> = {};
const slugs: Record<string, string> = {};
beforeAll(async () => {
  app = await startTestApp({
    prepare: async (sql, siteId) => {
      await seedDemo(sql, siteId);
    },
  });
  browser = await launchBrowser();
  for (const [name, path] of [
    ['png', '/logo.png'],
    ['mislabelled', '/mislabelled.png'],
    ['svg', '/logo.svg'],
    ['fake', '/fake.png'],
    ['missing', '/nothing.png'],
    ['none', null],
  ] as const) {
    ids[name] = await makeListing(app.sql, { siteId: app.siteId, userId: null, name: `Logo ${name} app`, status: 'live' });
    await app.sql`update listings set logo_url = ${path ? base + path : null}, tagline = 'Ships pictures', launch_week = date_trunc('week', now())::date where id = ${ids[name]}`;
    slugs[name] = (await app.sql`select slug from listings where id = ${ids[name]}`)[0].slug;
  }
}, 180_000);
afterAll(async () => {
  site.stop(true);
  await browser?.close();
  await app?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${app.url}${path}`, { headers });
const dims = async (res: Response) => {
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  return { format: meta.format, width: meta.width, height: meta.height };
};

describe('logos', () => {
  test('fetched once per logo_url, checked by content, SVG rasterised, every size a square PNG', async () => {
    const due = await logosDue(app.sql, 10_000);
    for (const name of ['png', 'svg', 'fake', 'missing', 'mislabelled']) expect(due).toContain(String(ids[name]));
    expect(due).not.toContain(String(ids.none));
    const outcome = async (name: string) => fetchListingLogo(app.sql, fetcher, String(ids[name]));
    expect(await outcome('png')).toBe('stored');
    expect(await outcome('png')).toBe('unchanged');
    expect(await outcome('mislabelled')).toBe('stored');
    expect(await outcome('svg')).toBe('stored');
    expect(await outcome('fake')).toBe('failed');
    expect(await outcome('missing')).toBe('failed');
    const [fake] = await app.sql`select status, error from listing_logos where listing_id = ${ids.fake}`;
    expect(fake).toMatchObject({ status: 'failed' });
    expect(fake.error).toContain('not an image');

    for (const size of [64, 128, 256]) {
      const res = await get(`/logos/${slugs.png}/${size}.png`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(await dims(res)).toEqual({ format: 'png', width: size, height: size });
    }
    const svg = await get(`/logos/${slugs.svg}/128.png`);
    expect(svg.headers.get('content-type')).toBe('image/png');
    const svgBytes = Buffer.from(await svg.arrayBuffer());
    expect(svgBytes.includes(Buffer.from('<svg'))).toBe(false);
    expect((await sharp(svgBytes).metadata()).format).toBe('png');
    // The rasterised circle is red in the middle.
    const { data } = await sharp(svgBytes).extract({ left: 64, top: 64, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    expect([data[0], data[1], data[2]]).toEqual([0xe1, 0x1d, 0x48]);
  });

  test('long-lived caching with an ETag; the initials tile when there is no logo or it failed; unknown is 404', async () => {
    const res = await get(`/logos/${slugs.png}/64.png`);
    expect(res.headers.get('cache-control')).toContain('max-age=86400');
    const etag = res.headers.get('etag')!;
    expect((await get(`/logos/${slugs.png}/64.png`, { 'if-none-match': etag })).status).toBe(304);
    for (const name of ['none', 'fake']) {
      const tile = await get(`/logos/${slugs[name]}/128.png`);
      expect(tile.status).toBe(200);
      expect(await dims(tile)).toEqual({ format: 'png', width: 128, height: 128 });
    }
    expect((await get('/logos/no-such-listing/64.png')).status).toBe(404);
    expect((await get(`/logos/${slugs.png}/100.png`)).status).toBe(404);
  });

  test('the fetch goes through the SSRF-safe fetcher: a logo on a private address is refused', async () => {
    const id = await makeListing(app.sql, { siteId: app.siteId, userId: null, status: 'live' });
    await app.sql`update listings set logo_url = ${`${base}/logo.png`} where id = ${id}`;
    expect(await fetchListingLogo(app.sql, strictFetcher, String(id))).toBe('failed');
    expect((await app.sql`select count(*)::int as n from listing_logo_images where listing_id = ${id}`)[0].n).toBe(0);
  });
});

describe('the fetch_logos job', () => {
  test('the worker fetches logos that are new or changed', async () => {
    const id = await makeListing(app.sql, { siteId: app.siteId, userId: null, status: 'live' });
    await app.sql`update listings set logo_url = ${`${base}/logo.svg`} where id = ${id}`;
    // Only this one is due: the demo's logos (on hosts that do not resolve) count as tried.
    await app.sql`insert into listing_logos (listing_id, source_url, status, error)
                  select id, logo_url, 'failed', 'test' from listings where logo_url is not null and id <> ${id}
                  on conflict (listing_id) do update set source_url = excluded.source_url`;
    const worker = await startWorker(app.config, app.databaseUrl, { logger: new Logger(() => () => {}), concurrency: 2, siteCheckFetcher: fetcher });
    try {
      await app.sql`select graphile_worker.add_job('fetch_logos', ${app.sql.json({ v: 1 } as never)}::json)`;
      const rows = await eventually(
        () => app.sql<{ size: number }[]>`select size from listing_logo_images where listing_id = ${id} order by size`,
        (r) => r.length >= 3,
        { tries: 300, everyMs: 100 },
      );
      expect(rows.map((r) => r.size)).toEqual([64, 128, 256]);
    } finally {
      await worker.stop();
    }
  }, 60_000);
});

describe('share image', () => {
  test('a 1200x630 PNG named in og:image, stored, and rendered again when the votes change', async () => {
    // The image shows the votes as of the last refresh, as every list does.
    await app.sql`select refresh_directory_views()`;
    const res = await get(`/share/${slugs.png}.png`);
    expect(res.status).toBe(200);
    expect(await dims(res)).toEqual({ format: 'png', width: 1200, height: 630 });
    const [first] = await app.sql`select fingerprint, rendered_at from listing_share_images where listing_id = ${ids.png}`;
    await get(`/share/${slugs.png}.png`);
    const [again] = await app.sql`select fingerprint, rendered_at from listing_share_images where listing_id = ${ids.png}`;
    expect(again.rendered_at).toEqual(first.rendered_at);
    const [u] = await app.sql`insert into users (email) values ('share-voter@example.test') returning id`;
    // A vote the site team discounted is not counted on the image, as nowhere else.
    await app.sql`insert into votes (listing_id, user_id, discounted_at, discount_reason) values (${ids.png}, ${u.id}, now(), 'test')`;
    await app.sql`select refresh_directory_views()`;
    const [site] = await app.sql<{ id: number; name: string }[]>`select id, name from sites where id = ${app.siteId}`;
    const unchanged = await listingShareImage(app.sql, site!, slugs.png);
    expect(unchanged!.etag).toBe(first.fingerprint.slice(0, 27));
    await app.sql`update votes set discounted_at = null, discount_reason = null where listing_id = ${ids.png} and user_id = ${u.id}`;
    await app.sql`select refresh_directory_views()`;
    // The edge keeps a served image a minute; what it serves next renders again because the fingerprint changed.
    const rerendered = await listingShareImage(app.sql, site!, slugs.png);
    expect((await sharp(rerendered!.png).metadata()).width).toBe(1200);
    const [after] = await app.sql`select fingerprint from listing_share_images where listing_id = ${ids.png}`;
    expect(after.fingerprint).not.toBe(first.fingerprint);
    expect((await get('/share/no-such-listing.png')).status).toBe(404);

    const html = await (await get(`/listings/${slugs.png}`)).text();
    expect(html).toContain(`<meta property="og:image" content="${app.config.siteUrl}/share/${slugs.png}.png"`);
    expect(html).toContain(`src="/logos/${slugs.png}/128.png"`);
  });
});

describe('pages in Chromium', () => {
  test('home, a category and a listing page at 1280 and 390 px: logos or initials tiles everywhere, no broken image', async () => {
    const [cat] =
      await app.sql`select c.slug from categories c join listings l on l.primary_category_id = c.id where l.status = 'live' group by c.slug order by count(*) desc limit 1`;
    const pages = { home: '/', category: `/categories/${cat.slug}`, listing: `/listings/${slugs.png}` };
    await mkdir('/tmp/listing-directory-screens', { recursive: true });
    for (const width of [1280, 390]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const failed: string[] = [];
      page.on('requestfailed', (r) => failed.push(r.url()));
      page.on('response', (r) => {
        if (r.request().resourceType() === 'image' && r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
      });
      for (const [name, path] of Object.entries(pages)) {
        await page.goto(`${app.url}${path}`, { waitUntil: 'load' });
        // Lazy images below the fold load as they scroll into view.
        await page.evaluate(async () => {
          for (let y = 0; y < document.body.scrollHeight; y += 600) {
            window.scrollTo(0, y);
            await new Promise((r) => requestAnimationFrame(() => r(null)));
          }
          window.scrollTo(0, 0);
          await Promise.all([...document.images].map((img) => (img.complete ? null : img.decode().catch(() => null))));
        });
        const images = await page.evaluate(() =>
          [...document.images].filter((i) => !i.classList.contains('px')).map((i) => ({ src: i.currentSrc, ok: i.complete && i.naturalWidth > 0 })),
        );
        expect(images.length).toBeGreaterThan(0);
        expect(images.filter((i) => !i.ok)).toEqual([]);
        expect(images.every((i) => i.src.startsWith(app.url))).toBe(true);
        expect(images.some((i) => i.src.includes('/logos/'))).toBe(true);
        await page.screenshot({ path: `/tmp/listing-directory-screens/${name}-${width}.png`, fullPage: false });
      }
      expect(failed).toEqual([]);
      await context.close();
    }
  }, 120_000);
});
