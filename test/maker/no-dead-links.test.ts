import { afterAll, beforeAll, expect, test } from 'bun:test';
import { seedDemo } from '../../seeds/demo.ts';
import { startTestApp, type TestApp } from '../harness.ts';

// Every link the home page, the launches pages and the sitemap make leads to a page: none is a 404
// (upcoming and awaiting-badge listings have their coming-soon page).

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      await seedDemo(sql, siteId);
    },
  });
}, 180_000);
afterAll(() => app?.stop());

const html = { accept: 'text/html' };
const hrefs = (text: string) =>
  [...text.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&')).filter((h) => h.startsWith('/') && !h.startsWith('//'));
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].replace(/&amp;/g, '&'));

test('no link on the home page, the launches pages or in the sitemap is a 404', async () => {
  const weeks = await app.sql`select distinct to_char(launch_week, 'YYYY-MM-DD') as w from listings where status in ('scheduled', 'awaiting_badge') order by 1`;
  expect(weeks.length).toBeGreaterThan(0);
  const sources = ['/', '/launches', '/launches/weeks/this', '/launches/weeks/next', '/launches/weeks/last', ...weeks.map((r) => `/launches/weeks/${r.w}`)];
  const launches = await (await app.fetch(`${app.url}/launches`, { headers: html })).text();
  sources.push(...hrefs(launches).filter((h) => h.startsWith('/launches?section=')));

  const targets = new Set<string>();
  for (const s of sources) {
    const res = await app.fetch(app.url + s, { headers: html });
    expect({ s, status: res.status }).toEqual({ s, status: 200 });
    for (const h of hrefs(await res.text())) targets.add(h);
  }
  const index = await (await app.fetch(`${app.url}/sitemap.xml`)).text();
  for (const map of locs(index)) {
    const res = await app.fetch(map);
    expect({ map, status: res.status }).toEqual({ map, status: 200 });
    for (const u of locs(await res.text())) targets.add(new URL(u).pathname + new URL(u).search);
  }
  // The upcoming listings the pages link to are among what was checked.
  const upcoming = await app.sql`select slug from listings where status in ('scheduled', 'awaiting_badge') and site_id = ${app.siteId}`;
  expect(upcoming.some((r) => targets.has(`/listings/${r.slug}`))).toBe(true);

  const dead: string[] = [];
  const all = [...targets];
  for (let i = 0; i < all.length; i += 8) {
    await Promise.all(
      all.slice(i, i + 8).map(async (t) => {
        const res = await app.fetch(app.url + t, { headers: html, redirect: 'manual' });
        await res.arrayBuffer();
        if (res.status === 404 || res.status >= 500) dead.push(`${res.status} ${t}`);
      }),
    );
  }
  expect(dead).toEqual([]);
  expect(all.length).toBeGreaterThan(100);
}, 300_000);
