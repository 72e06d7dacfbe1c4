// A site is its origin: a crawl (and a re-crawl) stays on the product's scheme, host and port,
// and never enters the directory's own site, even where both share a host name.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createSafeFetcher } from '../../core/net/ssrf-fetch.ts';
import { crawlSite } from './crawl-site.ts';
import { ExtractiveDrafter } from '../drafting/index.ts';

const UA = 'LaunchpadDirectoryBot/1.0 (+https://directory.example/bot)';
const html = (body: string) =>
  new Response(`<!doctype html><html><head><title>Kiln</title></head><body>${body}</body></html>`, { headers: { 'content-type': 'text/html' } });

let product: ReturnType<typeof Bun.serve>;
let directory: ReturnType<typeof Bun.serve>;
const directoryHits: string[] = [];

beforeAll(() => {
  directory = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      directoryHits.push(new URL(request.url).pathname);
      if (new URL(request.url).pathname === '/robots.txt') return new Response('User-agent: *\nAllow: /\n');
      return html('<h1>Launchpad</h1><p>Launchpad is the directory where makers list their software and launch it every Monday.</p>');
    },
  });
  product = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === '/robots.txt') return new Response('User-agent: *\nAllow: /\n');
      if (path === '/about') return html('<h1>About Kiln</h1><p>Kiln was started by two potters who kept losing glaze recipes in notebooks.</p>');
      if (path !== '/') return new Response('not found', { status: 404 });
      return html(
        `<h1>Kiln</h1><p>Kiln keeps every glaze recipe, firing schedule and test tile photo for your pottery studio in one place.</p>
        <a href="/about">About</a>
        <a href="http://site.test:${directory.port}/listings/kiln"><img src="http://site.test:${directory.port}/badge.svg" alt="Featured on Launchpad"></a>
        <a href="http://site.test:${directory.port}/">Launchpad</a>`,
      );
    },
  });
});

afterAll(() => {
  product.stop(true);
  directory.stop(true);
});

const fetcher = () =>
  createSafeFetcher({
    allowLoopback: true,
    userAgent: UA,
    timeoutMs: 3000,
    maxBytes: 200_000,
    resolve: async (name) => {
      if (name === 'site.test') return ['127.0.0.1'];
      throw new Error(`test resolver refuses ${name}`);
    },
  });

test("a re-crawl whose badge links to the directory on another port of the same host stays on the product's origin", async () => {
  directoryHits.length = 0;
  const start = `http://site.test:${product.port}/`;
  const result = await crawlSite(start, { fetcher: fetcher(), userAgent: UA, excludeOrigins: [`http://site.test:${directory.port}`] });
  if (result.status !== 'ok') throw new Error(JSON.stringify(result));
  expect(result.pages.map((p) => p.url)).toEqual([start, `${start}about`]);
  expect(directoryHits).toEqual([]);
  expect(result.skipped.filter((s) => s.url.includes(`:${directory.port}`)).map((s) => s.reason)).toEqual(['off_site', 'off_site']);
  const draft = await new ExtractiveDrafter().draft({ pages: result.pages, categoryNames: [] });
  expect(JSON.stringify(draft)).not.toContain('directory where makers');
  expect(draft.fields.short_description?.value).toContain('glaze recipe');
});

test('another port of the same host is another site even without the directory named', async () => {
  directoryHits.length = 0;
  const result = await crawlSite(`http://site.test:${product.port}/`, { fetcher: fetcher(), userAgent: UA });
  if (result.status !== 'ok') throw new Error(JSON.stringify(result));
  expect(result.pages.every((p) => new URL(p.url).port === String(product.port))).toBe(true);
  expect(directoryHits).toEqual([]);
});

test("the directory's own site is never crawled as a product", async () => {
  directoryHits.length = 0;
  const result = await crawlSite(`http://site.test:${directory.port}/`, {
    fetcher: fetcher(),
    userAgent: UA,
    excludeOrigins: [`http://site.test:${directory.port}/`],
  });
  expect(result).toMatchObject({ status: 'failed', reason: 'off_site' });
  expect(directoryHits).toEqual([]);
});
