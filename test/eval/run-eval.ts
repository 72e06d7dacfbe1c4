// Crawls and drafts every evaluation site through the real pipeline (crawlSite over the
// SSRF-safe fetcher, the extractive drafter and its evidence check) and scores each draft.
import robotsParser from 'robots-parser';
import { createSafeFetcher } from '../../core/net/ssrf-fetch.ts';
import { crawlSite } from '../../pipeline/crawl/crawl-site.ts';
import { productToken } from '../../pipeline/crawl/robots.ts';
import { ExtractiveDrafter } from '../../pipeline/drafting/index.ts';
import type { Drafter } from '../../pipeline/drafting/types.ts';
import { onPage, Site } from '../../pipeline/drafting/quotes.ts';
import { loadEvalSites, serveEvalSite, type EvalSet } from './eval-sites.ts';
import { EVAL_CATEGORIES } from './categories.ts';
import { scoreDraft, type Score } from './score.ts';

export const EVAL_UA = 'LaunchpadDirectoryBot/1.0 (+https://directory.example/bot)';
const NOW = new Date('2026-06-01T00:00:00Z');
const CATEGORIES = EVAL_CATEGORIES.map((c) => c.name);

export interface SiteResult extends Score {
  site: string;
  set: EvalSet;
  template: string;
  pages: number;
  robotsViolations: string[];
  ms: number;
  error: string | null;
}

export async function runEval(opts: { drafter?: Drafter; only?: string[]; set?: EvalSet } = {}): Promise<SiteResult[]> {
  const drafter = opts.drafter ?? new ExtractiveDrafter({ now: NOW });
  const offsiteHits: string[] = [];
  const offsite = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (r) => {
      offsiteHits.push(new URL(r.url).pathname);
      return new Response('<p>other site</p>', { headers: { 'content-type': 'text/html' } });
    },
  });
  const fetcher = createSafeFetcher({
    allowLoopback: true,
    userAgent: EVAL_UA,
    timeoutMs: 3000,
    maxBytes: 1_000_000,
    resolve: async (name) => {
      if (name.endsWith('.eval.test')) return ['127.0.0.1'];
      throw new Error(`eval resolver refuses ${name}`);
    },
  });
  const results: SiteResult[] = [];
  try {
    for (const site of loadEvalSites(opts.set ?? 'tuning')) {
      if (opts.only !== undefined && !opts.only.includes(site.name)) continue;
      offsiteHits.length = 0;
      const served = serveEvalSite(site, `${site.name}.eval.test`, `http://elsewhere.eval.test:${offsite.port}/`);
      const started = performance.now();
      try {
        const crawl = await crawlSite(served.url, { fetcher, userAgent: EVAL_UA, maxPages: 25 });
        if (crawl.status !== 'ok') throw new Error(`crawl failed: ${crawl.reason} ${crawl.detail}`);
        const proposal = await drafter.draft({ pages: crawl.pages, categoryNames: CATEGORIES, categories: EVAL_CATEGORIES });
        const ms = performance.now() - started;
        const robots = robotsParser(new URL('/robots.txt', served.url).href, site.robots);
        const robotsViolations = [
          ...served.hits.filter((path) => robots.isAllowed(new URL(path, served.url).href, productToken(EVAL_UA)) === false),
          ...offsiteHits.map((path) => `off-site ${path}`),
        ];
        const onSite = new Site(crawl.pages);
        const quoteOnPage = (quote: string, url: string) => {
          const page = onSite.page(url);
          return page !== undefined && onPage(page, quote);
        };
        const score = scoreDraft(proposal, site.truth, quoteOnPage);
        results.push({ site: site.name, set: site.set, template: site.truth.template, pages: crawl.pages.length, robotsViolations, ms, error: null, ...score });
      } catch (error) {
        results.push({
          site: site.name,
          set: site.set,
          template: site.truth.template,
          pages: 0,
          robotsViolations: [],
          ms: performance.now() - started,
          error: (error as Error).message,
          fabricated: [],
          found: [],
          missed: ['(site failed)'],
          values: 0,
          evidenced: 0,
        });
      } finally {
        served.stop();
      }
    }
  } finally {
    offsite.stop(true);
  }
  return results;
}

export interface Totals {
  sites: number;
  fabricated: number;
  robotsViolations: number;
  recall: number;
  coverage: number;
  maxMs: number;
  meanMs: number;
}

export function totals(results: SiteResult[]): Totals {
  const found = results.reduce((n, r) => n + r.found.length, 0);
  const stated = results.reduce((n, r) => n + r.found.length + r.missed.length, 0);
  const values = results.reduce((n, r) => n + r.values, 0);
  const evidenced = results.reduce((n, r) => n + r.evidenced, 0);
  return {
    sites: results.length,
    fabricated: results.reduce((n, r) => n + r.fabricated.length, 0),
    robotsViolations: results.reduce((n, r) => n + r.robotsViolations.length, 0),
    recall: stated === 0 ? 1 : found / stated,
    coverage: values === 0 ? 1 : evidenced / values,
    maxMs: Math.max(0, ...results.map((r) => r.ms)),
    meanMs: results.length === 0 ? 0 : results.reduce((n, r) => n + r.ms, 0) / results.length,
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export function report(results: SiteResult[], verbose = false, title = 'TOTAL'): string {
  const lines = ['site                      template        pages fabricated robots recall  coverage  ms'];
  for (const r of results) {
    const stated = r.found.length + r.missed.length;
    lines.push(
      `${r.site.padEnd(26)}${r.template.padEnd(16)}${String(r.pages).padStart(5)}${String(r.fabricated.length).padStart(11)}${String(r.robotsViolations.length).padStart(7)} ${pct(stated === 0 ? 1 : r.found.length / stated).padStart(6)}  ${pct(r.values === 0 ? 1 : r.evidenced / r.values).padStart(7)} ${r.ms.toFixed(0).padStart(5)}`,
    );
    if (r.error) lines.push(`    error: ${r.error}`);
    if (verbose) {
      for (const f of r.fabricated) lines.push(`    FABRICATED ${f}`);
      for (const v of r.robotsViolations) lines.push(`    ROBOTS ${v}`);
      for (const m of r.missed) lines.push(`    missed ${m}`);
    }
  }
  const t = totals(results);
  lines.push(
    `${title} ${t.sites} sites: fabricated ${t.fabricated}, robots violations ${t.robotsViolations}, recall ${pct(t.recall)}, evidence coverage ${pct(t.coverage)}, time to ready mean ${t.meanMs.toFixed(0)} ms, max ${t.maxMs.toFixed(0)} ms`,
  );
  return lines.join('\n');
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const verbose = args.includes('-v') || args.includes('--verbose');
  const only = args.filter((a) => !a.startsWith('-'));
  for (const set of ['tuning', 'held-out'] as const) {
    const results = await runEval({ set, only: only.length > 0 ? only : undefined });
    if (results.length === 0) continue;
    console.log(`\n== ${set} set ==`);
    console.log(report(results, verbose, set === 'tuning' ? 'TUNING' : 'HELD-OUT'));
  }
}
