// A page whose content its script renders: the crawl renders it in headless Chromium, and the
// browser's own requests stay under the crawl's rules (same origin, robots.txt, the SSRF-safe
// fetcher), so a script's call to a disallowed path or another server never leaves the machine.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createSafeFetcher } from '../../core/net/ssrf-fetch.ts';
import { crawlSite } from './crawl-site.ts';
import { ChromiumRenderer, isJsShell } from './render-page.ts';
import { ExtractiveDrafter } from '../drafting/index.ts';

const UA = 'LaunchpadDirectoryBot/1.0 (+https://directory.example/bot)';
let site: ReturnType<typeof Bun.serve>;
let elsewhere: ReturnType<typeof Bun.serve>;
const hits: string[] = [];
const elsewhereHits: string[] = [];

const SHELL = `<!doctype html><html><head><title>Loomly</title><script type="module" src="/assets/app.js"></script></head>
<body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript></body></html>`;

const APP = `
const root = document.getElementById('root');
const data = await (await fetch('/api/product.json')).json();
root.innerHTML = '<header><a href="/">Loomly</a><nav><a href="/about">About</a></nav></header>' +
  '<h1>' + data.tagline + '</h1><p>' + data.description + '</p>' +
  '<h2>Features</h2><ul>' + data.features.map((f) => '<li>' + f + '</li>').join('') + '</ul>' +
  '<footer><p>Loomly Ltd, 5 Mill Lane, Leeds LS1 4AB, United Kingdom</p></footer>';
fetch('/private/roadmap.json').catch(() => {});
fetch('ELSEWHERE/track').catch(() => {});
`;

beforeAll(() => {
  elsewhere = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      elsewhereHits.push(new URL(request.url).pathname);
      return new Response('{}');
    },
  });
  site = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      hits.push(path);
      const json = (v: unknown) => Response.json(v);
      switch (path) {
        case '/robots.txt':
          return new Response('User-agent: *\nDisallow: /private/\n');
        case '/':
        case '/about':
          return new Response(SHELL, { headers: { 'content-type': 'text/html' } });
        case '/assets/app.js':
          return new Response(APP.replace('ELSEWHERE', `http://elsewhere.test:${elsewhere.port}`), { headers: { 'content-type': 'text/javascript' } });
        case '/api/product.json':
          return json({
            tagline: 'Weaving patterns for hand looms',
            description: 'Loomly turns a photo of a fabric into a weaving draft you can follow on any four-shaft loom.',
            features: ['Drafts from a single photo', 'Yarn calculator for every draft'],
          });
        default:
          return new Response('not found', { status: 404 });
      }
    },
  });
});

afterAll(() => {
  site.stop(true);
  elsewhere.stop(true);
});

test('a JavaScript shell is recognised; a page with its text is not', () => {
  expect(isJsShell(SHELL, 'You need to enable JavaScript to run this app.')).toBe(true);
  const full = `<html><body><script src="/a.js"></script><p>${'Real words on the page. '.repeat(20)}</p></body></html>`;
  expect(isJsShell(full, 'Real words on the page. '.repeat(20))).toBe(false);
});

test('a page rendered by its script is crawled from the rendered DOM, within robots.txt and the site', async () => {
  const fetcher = createSafeFetcher({
    allowLoopback: true,
    userAgent: UA,
    timeoutMs: 3000,
    maxBytes: 500_000,
    resolve: async (name) => {
      if (name === 'loomly.test' || name === 'elsewhere.test') return ['127.0.0.1'];
      throw new Error(`test resolver refuses ${name}`);
    },
  });
  const renderer = new ChromiumRenderer({ fetcher, userAgent: UA, maxBytes: 500_000 });
  try {
    const started = performance.now();
    const result = await crawlSite(`http://loomly.test:${site.port}/`, { fetcher, userAgent: UA, render: renderer, maxBytesPerPage: 500_000 });
    if (result.status !== 'ok') throw new Error(JSON.stringify(result));
    const draft = await new ExtractiveDrafter().draft({ pages: result.pages, categoryNames: [] });
    console.log(`rendered site: ${result.pages.length} pages crawled, rendered and drafted in ${(performance.now() - started).toFixed(0)} ms`);
    expect(result.pages[0]!.text).toContain('Loomly turns a photo of a fabric into a weaving draft');
    expect(result.pages.map((p) => new URL(p.url).pathname)).toEqual(['/', '/about']);
    expect(draft.fields.tagline?.value).toBe('Weaving patterns for hand looms');
    expect(draft.fields.features?.value).toEqual(['Drafts from a single photo', 'Yarn calculator for every draft']);
    expect(draft.fields.city?.value).toBe('Leeds');
    expect(hits).toContain('/api/product.json');
    expect(hits.filter((h) => h.startsWith('/private'))).toEqual([]);
    expect(elsewhereHits).toEqual([]);
  } finally {
    await renderer.close();
  }
}, 60_000);
