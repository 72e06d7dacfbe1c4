// A page is read in the charset its Content-Type names, as a browser would (the crawl decodes it
// itself since it runs without Crawlee), and one served without a charset is read as UTF-8.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createSafeFetcher } from '../../core/net/ssrf-fetch.ts';
import { crawlSite } from './crawl-site.ts';

const UA = 'LaunchpadDirectoryBot/1.0 (+https://directory.example/bot)';
let site: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  site = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === '/robots.txt') return new Response('User-agent: *\nAllow: /\n');
      if (path === '/') {
        // "Café crème" in ISO-8859-1: é and è are one byte each, invalid as UTF-8.
        const page =
          '<!doctype html><html><head><title>Caf\u00e9</title></head><body><p>Caf\u00e9 cr\u00e8me, brewed daily.</p><a href="/plain">More</a></body></html>';
        return new Response(
          Uint8Array.from(page, (c) => c.charCodeAt(0)),
          { headers: { 'content-type': 'text/html; charset=ISO-8859-1' } },
        );
      }
      if (path === '/plain')
        return new Response('<!doctype html><html><body><p>Gr\u00fc\u00dfe aus K\u00f6ln.</p></body></html>', { headers: { 'content-type': 'text/html' } });
      return new Response('not found', { status: 404 });
    },
  });
});
afterAll(() => site.stop(true));

test('pages are decoded in the charset their Content-Type names, UTF-8 otherwise', async () => {
  const fetcher = createSafeFetcher({
    allowLoopback: true,
    userAgent: UA,
    timeoutMs: 3000,
    resolve: async (name) => {
      if (name === 'site.test') return ['127.0.0.1'];
      throw new Error(`test resolver refuses ${name}`);
    },
  });
  const result = await crawlSite(`http://site.test:${site.port}/`, { fetcher, userAgent: UA });
  if (result.status !== 'ok') throw new Error(`crawl failed: ${JSON.stringify(result)}`);
  expect(result.pages.map((p) => [p.title, p.text])).toEqual([
    ['Caf\u00e9', expect.stringContaining('Caf\u00e9 cr\u00e8me, brewed daily.')],
    [null, expect.stringContaining('Gr\u00fc\u00dfe aus K\u00f6ln.')],
  ]);
});
