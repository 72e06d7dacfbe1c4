import pino from 'pino';
import { loadConfig } from '../core/config.ts';
import { guardDatabase } from '../core/database-guard.ts';
import { connect } from '../sql/db.ts';
import { ensureSite } from '../sql/site.ts';
import { buildApp } from '../api/app.ts';
import { createCache } from '../api/http/cache.ts';
import { createRateLimiter, notePeerAddress } from '../api/http/rate-limit.ts';
import { benchDatabase } from './database.ts';
import { oneTypo, prng } from './scenarios.ts';

/**
 * `bun bench/latency.ts`: what one long-tail read costs, with nothing else running: distinct
 * requests, one at a time, with the cache off, straight to the app's handler (no sockets), so the
 * figures compare directory sizes (item 4 of the hot-path issue: 100k against 1M) rather than
 * the load generator. Listings are drawn uniformly over every live slug; searches are distinct
 * names with one typo each, as the long-tail bench scenario asks them, and single words of the
 * directory with one typo (broad queries: each matches many listings). BENCH_LATENCY_REQUESTS
 * (400) of each, after 50 to warm the plans. The database is the bench's (BENCH_LISTINGS, DATA_DIR).
 */
const requests = Number(process.env.BENCH_LATENCY_REQUESTS ?? 400);
const db = await benchDatabase(Number(process.env.BENCH_LISTINGS ?? 100_000));
const base = 'http://127.0.0.1:9';
const config = loadConfig({
  ...process.env,
  SITE_URL: base,
  DATABASE_URL: db.url,
  LOG_LEVEL: 'warn',
  REDIS_URL: '',
  RATE_LIMIT_ANONYMOUS_READS: '10000000',
});
const log = pino({ level: 'warn' });
const pool = connect(db.url, { max: 4, workMemMb: config.db.workMemMb });
const { sql, health } = guardDatabase(pool, { url: db.url, retryAfterSeconds: 5, connectTimeoutMs: 5000, deadlineMs: 30_000 });
const site = await ensureSite(sql, config.siteKey, config.siteUrl);
const cache = createCache({ ttlSeconds: 0, redisUrl: null, initialGeneration: 0 });
const limiter = createRateLimiter({ limits: config.rateLimits, redisUrl: null, log, prefix: 'rl:latency' });
const app = buildApp({ config, sql, site, cache, log, limiter, dbHealth: health });

const rnd = prng(7);
const slugs = (await db.sql`select slug from listings where site_id = ${db.siteId} and status = 'live'`).map((r) => r.slug as string);
const names = (await db.sql`select distinct lower(name) as name from listings where site_id = ${db.siteId} and status = 'live' limit 50000`).map(
  (r) => r.name as string,
);
// Single words of the directory (a word as a person types it, broad: it matches many listings).
const words = (await db.sql`select word from search_words where length(word) >= 6 order by md5(word) limit 2000`).map((r) => r.word as string);
const typoOf = (name: string) => {
  const longest = name.split(/\s+/).reduce((a, b) => (b.length > a.length ? b : a));
  return longest.length >= 4 ? name.replace(longest, oneTypo(rnd, longest)) : name;
};
const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;

async function measure(name: string, path: () => string) {
  const times: number[] = [];
  for (let i = 0; i < requests + 50; i++) {
    const req = new Request(`${base}${path()}`);
    notePeerAddress(req, '127.0.0.1');
    const t = performance.now();
    const res = await app.handle(req);
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
await measure('long tail: typo search', () => `/api/v1/listings?q=${encodeURIComponent(typoOf(pick(names)))}`);
await measure('typo search: one broad word', () => `/api/v1/listings?q=${encodeURIComponent(oneTypo(rnd, pick(words)))}`);
await cache.close();
await limiter.close();
await health.close();
await pool.end();
await db.sql.end();
await db.stop();
process.exit(0);
