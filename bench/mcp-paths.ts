import { Elysia } from 'elysia';
import pino from 'pino';
import { loadConfig } from '../core/config.ts';
import { connect } from '../sql/db.ts';
import { ensureSite } from '../sql/site.ts';
import { createCache } from '../api/http/cache.ts';
import { createRateLimiter, notePeerAddress } from '../api/http/rate-limit.ts';
import { mcpPlugin } from '../api/mcp/mount.ts';
import { operations } from '../api/registry/index.ts';
import { IN_PROCESS_BASE } from './in-process-app.ts';
import { benchDatabase } from './database.ts';

/**
 * `bun bench/mcp-paths.ts`: what one cached MCP tools/call of get_listing costs the edge on each
 * of its two paths, in process (no sockets): the fast path for a plain read, and the SDK (a
 * server built and connected for the request). The figures in api/mcp/mount.ts come from here.
 * BENCH_ITERATIONS (5000) per path, alternated twice; BENCH_LISTINGS as for the bench.
 */
const iterations = Number(process.env.BENCH_ITERATIONS ?? 5000);
const db = await benchDatabase(Number(process.env.BENCH_LISTINGS ?? 100_000));
const config = loadConfig({
  ...process.env,
  SITE_URL: IN_PROCESS_BASE,
  DATABASE_URL: db.url,
  LOG_LEVEL: 'warn',
  RATE_LIMIT_ANONYMOUS_READS: '10000000',
  REDIS_URL: '',
});
const log = pino({ level: 'warn' });
const sql = connect(db.url, { max: 4 });
const site = await ensureSite(sql, config.siteKey, config.siteUrl);
const cache = createCache({ ttlSeconds: 3600, redisUrl: null, initialGeneration: 0 });
const limiter = createRateLimiter({ limits: config.rateLimits, redisUrl: null, log });
const deps = { config, sql, site, cache, log, limiter };
const apps = {
  'fast path': new Elysia().use(mcpPlugin(deps)),
  SDK: new Elysia().use(mcpPlugin(deps, operations, { plainReads: false })),
};
const [{ slug }] = await db.sql<{ slug: string }[]>`select slug from listings where site_id = ${db.siteId} and status = 'live' order by id limit 1`;
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_listing', arguments: { slug } } });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
for (let round = 0; round < 2; round++) {
  for (const [name, app] of Object.entries(apps)) {
    const send = async () => {
      const req = new Request(`${IN_PROCESS_BASE}/mcp`, { method: 'POST', headers, body });
      notePeerAddress(req, '127.0.0.1');
      const res = await app.handle(req);
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    for (let i = 0; i < 300; i++) await send();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < iterations; i++) await send();
    const wall = (performance.now() - t0) / iterations;
    const cpu = process.cpuUsage(cpu0);
    console.log(`${name.padEnd(10)} ${((cpu.user + cpu.system) / iterations).toFixed(1).padStart(7)} µs CPU  ${(wall * 1000).toFixed(1).padStart(7)} µs wall`);
  }
}
await cache.close();
await limiter.close();
await sql.end();
await db.sql.end();
await db.stop();
process.exit(0);
