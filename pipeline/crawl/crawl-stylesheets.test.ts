// The crawler reads the site's own linked stylesheets (through the SSRF-safe fetcher, robots.txt
// and caps applied) so that text they hide is not page text.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createSafeFetcher } from '../../core/net/ssrf-fetch.ts';
import { crawlSite } from './crawl-site.ts';

const UA = 'LaunchpadDirectoryBot/1.0 (+https://directory.example/bot)';
let site: ReturnType<typeof Bun.serve>;
let hits: string[] = [];
const css = (body: string) => new Response(body, { headers: { 'content-type': 'text/css' } });

beforeAll(() => {
  site = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      hits.push(path);
      if (path === '/robots.txt') return new Response('User-agent: *\nDisallow: /private/\n');
      if (path === '/a.css') return css('.planted{display:none}');
      if (path === '/b.css') return css(`.big{display:none}/*${'x'.repeat(5000)}*/`);
      if (path === '/private/c.css') return css('.secret{display:none}');
      const head =
        '<link rel="stylesheet" href="/a.css"><link rel="stylesheet" href="/a.css#again"><link rel="stylesheet" href="/b.css">' +
        '<link rel="stylesheet" href="/private/c.css"><link rel="stylesheet" href="http://elsewhere.test/d.css">';
      return new Response(
        `<html><head><title>T</title>${head}</head><body><p>Seen.</p><p class="planted">Founded in 1850.</p><p class="big">Big.</p><p class="secret">Secret.</p><a href="/two">two</a></body></html>`,
        { headers: { 'content-type': 'text/html' } },
      );
    },
  });
});
afterAll(() => site.stop(true));

test('linked same-site stylesheets hide text; each is fetched once, within robots.txt and the byte cap', async () => {
  hits = [];
  const fetcher = createSafeFetcher({
    allowLoopback: true,
    userAgent: UA,
    timeoutMs: 3000,
    resolve: async (name) => (name === 'site.test' ? ['127.0.0.1'] : Promise.reject(new Error(`refused ${name}`))),
  });
  const result = await crawlSite(`http://site.test:${site.port}/`, { fetcher, userAgent: UA, stylesheets: { maxBytesPerSheet: 1000 } });
  if (result.status !== 'ok') throw new Error(JSON.stringify(result));
  expect(result.pages.map((p) => p.text)).toEqual(['Seen.\nBig.\nSecret.\ntwo', 'Seen.\nBig.\nSecret.\ntwo']);
  expect(hits.filter((h) => h.endsWith('.css'))).toEqual(['/a.css', '/b.css']);
  expect(hits).not.toContain('/private/c.css');
  const reasons = Object.fromEntries(result.skipped.filter((s) => s.url.includes('.css')).map((s) => [new URL(s.url).pathname, s.reason]));
  expect(reasons).toEqual({ '/b.css': 'too_large', '/private/c.css': 'robots_disallowed', '/d.css': 'off_site' });
  expect(result.stylesheetBytes).toBe('.planted{display:none}'.length);
});
