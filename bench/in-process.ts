import pino from 'pino';
import { loadConfig } from '../core/config.ts';
import { guardDatabase } from '../core/database-guard.ts';
import { connect } from '../sql/db.ts';
import { ensureSite } from '../sql/site.ts';
import { buildApp } from '../api/app.ts';
import { createCache } from '../api/http/cache.ts';
import { createRateLimiter, notePeerAddress } from '../api/http/rate-limit.ts';
import { benchDatabase } from './database.ts';

/**
 * `bun bench/in-process.ts`: the edge's own cost per request, with no sockets and no load
 * generator: each scenario's warm requests go straight to the app's handler, one at a time, and
 * the mean CPU time per request is printed. On a busy or shared machine, where autocannon's figures
 * swing with the neighbours, this is the steadier way to compare two versions of the hot path.
 * BENCH_ITERATIONS (20000) per scenario. BENCH_CACHE=off runs every request through the database (the
 * CPU figure is then the edge's share only; wall time includes the database).
 */
const iterations = Number(process.env.BENCH_ITERATIONS ?? 20_000);
const db = await benchDatabase(Number(process.env.BENCH_LISTINGS ?? 100_000));
const base = 'http://127.0.0.1:9';
const config = loadConfig({
  ...process.env,
  SITE_URL: base,
  DATABASE_URL: db.url,
  LOG_LEVEL: 'warn',
  RATE_LIMIT_ANONYMOUS_READS: '10000000',
  RATE_LIMIT_AUTHENTICATED_READS: '10000000',
  REDIS_URL: '',
});
const log = pino({ level: 'warn' });
const pool = connect(db.url, { max: 10 });
const { sql, health } = guardDatabase(pool, { url: db.url, retryAfterSeconds: 5, connectTimeoutMs: 5000, deadlineMs: 30_000 });
const site = await ensureSite(sql, config.siteKey, config.siteUrl);
const cache = createCache({ ttlSeconds: process.env.BENCH_CACHE === 'off' ? 0 : 3600, redisUrl: null, initialGeneration: 0 });
const limiter = createRateLimiter({ limits: config.rateLimits, redisUrl: null, log, prefix: 'rl:bench' });
const app = buildApp({ config, sql, site, cache, log, limiter, dbHealth: health });

const [{ slug }] = await db.sql<{ slug: string }[]>`select slug from listings where site_id = ${db.siteId} and status = 'live' order by id limit 1`;
const mcp = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_listing', arguments: { slug } } });
const scenarios: [string, () => Request][] = [
  ['get_listing', () => new Request(`${base}/api/v1/listings/${slug}`)],
  ['get_listing (br)', () => new Request(`${base}/api/v1/listings/${slug}`, { headers: { 'accept-encoding': 'gzip, br' } })],
  ['leaderboard', () => new Request(`${base}/api/v1/leaderboards/community-all-time?page=2`)],
  ['search', () => new Request(`${base}/api/v1/listings?q=notse`)],
  ['launch week', () => new Request(`${base}/api/v1/launches/weeks/last`)],
  ['page: listing', () => new Request(`${base}/listings/${slug}`)],
  [
    'mcp tools/call',
    () =>
      new Request(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        body: mcp,
      }),
  ],
];
const only = process.env.BENCH_ONLY?.split(',');
for (const [name, make] of scenarios) {
  if (only && !only.includes(name)) continue;
  let bytes = 0;
  const send = async () => {
    const req = make();
    notePeerAddress(req, '127.0.0.1');
    const res = await app.handle(req);
    if (res.status >= 400) throw new Error(`${name}: ${res.status} ${await res.text()}`);
    bytes = (await res.arrayBuffer()).byteLength;
  };
  for (let i = 0; i < 500; i++) await send();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) await send();
  const wall = (performance.now() - t0) / iterations;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `${name.padEnd(20)} ${((cpu.user + cpu.system) / iterations).toFixed(1).padStart(7)} µs CPU  ${(wall * 1000).toFixed(1).padStart(7)} µs wall  ${String(bytes).padStart(7)} bytes`,
  );
}
await cache.close();
await limiter.close();
await health.close();
await pool.end();
await db.sql.end();
await db.stop();
process.exit(0);
