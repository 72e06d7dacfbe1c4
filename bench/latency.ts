import { IN_PROCESS_BASE, inProcessApp } from './in-process-app.ts';
import { oneTypo, prng } from './scenarios.ts';

/**
 * `bun bench/latency.ts`: what one long-tail read costs, with nothing else running: distinct
 * requests, one at a time, with the cache off, straight to the app's handler (no sockets), so the
 * figures compare directory sizes (100k against 1M) rather than
 * the load generator. Listings are drawn uniformly over every live slug; searches are distinct
 * names with one typo each, as the long-tail bench scenario asks them, and single words of the
 * directory found in at least 1% of its listings, with one typo (broad queries); alternatives are a listing's
 * first six, as its page shows them. BENCH_LATENCY_REQUESTS
 * (400) of each, after 50 to warm the plans; lists without q (browse: ...) by a sort and page drawn each time; BENCH_ONLY=name,... runs only those. The database is the
 * bench's (BENCH_LISTINGS, DATA_DIR).
 */
const requests = Number(process.env.BENCH_LATENCY_REQUESTS ?? 400);
const { db, handle, close } = await inProcessApp({ cacheTtlSeconds: 0, connections: 4 });
const base = IN_PROCESS_BASE;

const rnd = prng(7);
const slugs = (await db.sql`select slug from listings where site_id = ${db.siteId} and status = 'live'`).map((r) => r.slug as string);
const names = (await db.sql`select distinct lower(name) as name from listings where site_id = ${db.siteId} and status = 'live' limit 50000`).map(
  (r) => r.name as string,
);
// Single words of the directory found in at least 1% of its live listings (a word as a person types
// it, broad: it matches many listings). By that share, not drawn from every word: once names grow with
// the directory most words are names, and a draw from all of them at a million was mostly narrow.
const words = (
  await db.sql`select word from search_words where length(word) >= 6
               and listings >= ${Math.ceil(slugs.length / 100)} order by md5(word) limit 2000`
).map((r) => r.word as string);
const typoOf = (name: string) => {
  const longest = name.split(/\s+/).reduce((a, b) => (b.length > a.length ? b : a));
  return longest.length >= 4 ? name.replace(longest, oneTypo(rnd, longest)) : name;
};
const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;

const only = process.env.BENCH_ONLY?.split(',');

async function measure(name: string, path: () => string) {
  if (only && !only.includes(name)) return;
  const times: number[] = [];
  for (let i = 0; i < requests + 50; i++) {
    const req = new Request(`${base}${path()}`);
    const t = performance.now();
    const res = await handle(req);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
    if (i >= 50) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
  const mean = (times.reduce((a, b) => a + b, 0) / times.length).toFixed(1);
  console.log(
    `${name.padEnd(28)} mean ${mean.padStart(6)} ms  p50 ${at(0.5).padStart(6)}  p90 ${at(0.9).padStart(6)}  p99 ${at(0.99).padStart(6)}  max ${at(1).padStart(6)}`,
  );
}

console.log(`${slugs.length} live listings; ${requests} distinct requests each, serial, uncached`);
await measure('long tail: get_listing', () => `/api/v1/listings/${pick(slugs)}`);
// What every listing page also reads: the first six alternatives (listing_stats_live_rank).
await measure('long tail: get_alternatives', () => `/api/v1/listings/${pick(slugs)}/alternatives?per_page=6`);
await measure('long tail: typo search', () => `/api/v1/listings?q=${encodeURIComponent(typoOf(pick(names)))}`);
await measure('typo search: one broad word', () => `/api/v1/listings?q=${encodeURIComponent(oneTypo(rnd, pick(words)))}`);
// Lists without q, as agents browse: every live listing by a counter, the upcoming ones, a filter
// few listings (or none) match, a category (a top one or a subcategory), and a stage or country,
// each on one of its first pages.
const categories = (await db.sql`select slug from categories order by slug`).map((r) => r.slug as string);
const facets = (
  await db.sql`select distinct 'stage=' || stage as f from listings where site_id = ${db.siteId} and status = 'live' and stage is not null
               union select distinct 'country=' || country from listings where site_id = ${db.siteId} and status = 'live' and country is not null`
).map((r) => r.f as string);
const sorts = ['relevance', 'votes', 'trending', 'most_viewed', 'most_followed', 'newest'];
const firstPages = () => `sort=${pick(sorts)}&page=${1 + Math.floor(rnd() * 3)}`;
await measure('browse: all live', () => `/api/v1/listings?${firstPages()}`);
await measure('browse: upcoming', () => `/api/v1/listings?status=upcoming&${firstPages()}`);
await measure('browse: a rare filter', () => `/api/v1/listings?pricing_model=${pick(['enterprise', 'barter', 'donationware'])}&${firstPages()}`);
await measure('browse: a category', () => `/api/v1/listings?category=${pick(categories)}&${firstPages()}`);
await measure('browse: a stage or country', () => `/api/v1/listings?${pick(facets)}&${firstPages()}`);
await close();
process.exit(0);
