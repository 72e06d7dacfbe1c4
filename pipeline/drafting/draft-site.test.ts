// End to end without the database: the fixture site served by a real HTTP server on loopback,
// crawled by crawlSite through the SSRF-safe fetcher, then drafted by the configured drafter.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createSafeFetcher } from '../../core/net/ssrf-fetch.ts';
import { crawlSite } from '../crawl/crawl-site.ts';
import { completenessOf } from '../../core/drafts/completeness.ts';
import { applyAi, DRAFT_PARTS, readContent } from '../../core/drafts/model.ts';
import { createDrafter } from './index.ts';
import { serveSite } from '../../test/fixtures/sites/sites.ts';
import { containsPhrase, normaliseText } from './normalise.ts';

const UA = 'LaunchpadDirectoryBot/1.0 (+https://directory.example/bot)';
const NOW = new Date('2026-06-01T00:00:00Z');
const CATEGORIES = ['File Sync', 'Security', 'Project Management', 'Cryptocurrency', 'Collaboration'];

let acme: ReturnType<typeof Bun.serve>;
let rival: ReturnType<typeof Bun.serve>;

const fetcher = createSafeFetcher({
  allowLoopback: true,
  userAgent: UA,
  timeoutMs: 3000,
  maxBytes: 500_000,
  // Only the fixture names resolve (to loopback); anything else, elsewhere.test included, fails.
  resolve: async (name) => {
    if (name === 'acme.test' || name === 'rival.test') return ['127.0.0.1'];
    throw new Error(`test resolver refuses ${name}`);
  },
});

beforeAll(() => {
  acme = serveSite('acme');
  rival = serveSite('rival');
});
afterAll(() => {
  acme.stop(true);
  rival.stop(true);
});

async function crawl(url: string) {
  const result = await crawlSite(url, { fetcher, userAgent: UA });
  if (result.status !== 'ok') throw new Error(`crawl failed: ${JSON.stringify(result)}`);
  return result;
}

describe('crawl then draft', () => {
  test('the extractive drafter drafts the crawled fixture site with evidence', async () => {
    const origin = `http://acme.test:${acme.port}`;
    const crawled = await crawl(`${origin}/`);
    expect(crawled.pages.map((p) => new URL(p.url).pathname).sort()).toEqual(['/', '/about', '/contact', '/faq', '/pricing']);
    expect(crawled.skipped).toContainEqual({ url: `${origin}/private/`, reason: 'robots_disallowed' });
    expect(crawled.skipped).toContainEqual({ url: 'https://elsewhere.test/', reason: 'off_site' });

    const drafter = createDrafter({ kind: 'extractive', openaiApiKey: null, openaiBaseUrl: null, model: 'unused', timeoutMs: 1000 }, { now: NOW });
    expect(drafter.kind).toBe('extractive');
    const draft = await drafter.draft({ pages: crawled.pages, categoryNames: CATEGORIES });

    expect(draft.fields.name?.value).toBe('Acme Sync');
    expect(draft.fields.founded_year).toEqual({ value: '2019', evidence: [{ quote: expect.stringContaining('founded in 2019'), url: `${origin}/about` }] });
    expect(draft.fields.country?.value).toBe('DE');
    expect(draft.fields.city?.value).toBe('Berlin');
    expect(draft.fields.contact_email?.value).toBe('hello@acme.test');
    expect(draft.fields.pricing_model?.value).toBe('Freemium');
    expect(draft.fields.logo_url?.value).toBe(`${origin}/img/logo.svg`);
    expect(draft.fields.categories?.value).toEqual(['File Sync', 'Collaboration']);
    expect(draft.faqs.length).toBe(4);
    expect(draft.founders.map((f) => f.value.name)).toEqual(['Jane Doe', 'Rahul Mehta']);
    expect(Object.keys(draft.company_socials).sort()).toEqual(['github', 'linkedin', 'x', 'youtube']);

    // The robots-forbidden page's facts and the hidden injection never appear.
    const json = JSON.stringify(draft);
    for (const planted of ['1999', 'Oslo', 'Norway', 'secret@', '1850', 'Paris', 'attacker@', 'Cryptocurrency']) expect(json).not.toContain(planted);
    // Every quote is on the page it names (the logo's is its image's alt text, no page text).
    expect(draft.fields.logo_url?.evidence.map((e) => e.quote)).toEqual(['Acme Sync logo']);
    const { logo_url: _logo, ...textFields } = draft.fields;
    const quotes = [...Object.values(textFields), ...draft.faqs, ...draft.founders].flatMap((v) => v!.evidence);
    for (const e of quotes) {
      const page = crawled.pages.find((p) => p.url === e.url);
      expect(page).toBeDefined();
      expect(containsPhrase(normaliseText(page!.text), normaliseText(e.quote))).toBe(true);
    }
    const content = readContent({ fields: {}, faqs: null, founders: null, company_socials: null, founder_socials: null, story: null, milestones: null });
    applyAi(content, draft, DRAFT_PARTS);
    expect(completenessOf(content).completeness).toBe(100);
    expect(completenessOf(content).missing).toEqual([]);
  });

  test('competitor comparison from two crawled sites', async () => {
    const product = await crawl(`http://acme.test:${acme.port}/`);
    const competitor = await crawl(`http://rival.test:${rival.port}/`);
    const drafter = createDrafter({ kind: 'extractive', openaiApiKey: null, openaiBaseUrl: null, model: 'unused', timeoutMs: 1000 }, { now: NOW });
    const out = await drafter.compare({ product: product.pages, competitor: competitor.pages, productName: 'Acme Sync' });
    expect(out.competitor).toEqual({ url: `http://rival.test:${rival.port}/`, name: 'Rival Drive' });
    const founded = out.points.find((p) => p.value.topic === 'Founded')!;
    expect(founded.value).toEqual({ topic: 'Founded', product: '2019', competitor: '2012' });
    expect(founded.evidence.map((e) => new URL(e.url).hostname)).toEqual(['acme.test', 'rival.test']);
  });
});
