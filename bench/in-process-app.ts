import pino from 'pino';
import { loadConfig } from '../core/config.ts';
import { guardDatabase } from '../core/database-guard.ts';
import { connect } from '../sql/db.ts';
import { ensureSite } from '../sql/site.ts';
import { buildApp } from '../api/app.ts';
import { edgePoolOptions } from '../api/server.ts';
import { createCache } from '../api/http/cache.ts';
import { createRateLimiter, notePeerAddress } from '../api/http/rate-limit.ts';
import { benchDatabase } from './database.ts';

/** The base URL of requests sent straight to the app (nothing listens there). */
export const IN_PROCESS_BASE = 'http://127.0.0.1:9';

/**
 * The edge's app on the bench database, for requests sent to its handler without sockets
 * (bench/in-process.ts, bench/latency.ts): the edge's connection settings, the rate limits lifted,
 * no Redis, and the response cache for `cacheTtlSeconds` (0: off).
 */
export async function inProcessApp(opts: { cacheTtlSeconds: number; connections: number }) {
  const db = await benchDatabase(Number(process.env.BENCH_LISTINGS ?? 100_000));
  const config = loadConfig({
    ...process.env,
    SITE_URL: IN_PROCESS_BASE,
    DATABASE_URL: db.url,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ANONYMOUS_READS: '10000000',
    RATE_LIMIT_AUTHENTICATED_READS: '10000000',
    REDIS_URL: '',
  });
  const log = pino({ level: 'warn' });
  const pool = connect(db.url, { ...edgePoolOptions(config), max: opts.connections });
  const { sql, health } = guardDatabase(pool, { url: db.url, retryAfterSeconds: 5, connectTimeoutMs: 5000, deadlineMs: 30_000 });
  const site = await ensureSite(sql, config.siteKey, config.siteUrl);
  const cache = createCache({ ttlSeconds: opts.cacheTtlSeconds, redisUrl: null, initialGeneration: 0 });
  const limiter = createRateLimiter({ limits: config.rateLimits, redisUrl: null, log, prefix: 'rl:bench' });
  const finishing: (() => Promise<void>)[] = [];
  const app = buildApp({ config, sql, site, cache, log, limiter, dbHealth: health, atStop: (finish) => finishing.push(finish) });
  return {
    db,
    /** The edge's pool, for reads measured without a request around them. */
    sql,
    /** Answers one request as the edge would, from the loopback address. */
    async handle(req: Request): Promise<Response> {
      notePeerAddress(req, '127.0.0.1');
      return app.handle(req);
    },
    async close() {
      await Promise.all(finishing.map((finish) => finish()));
      await cache.close();
      await limiter.close();
      await health.close();
      await pool.end();
      await db.sql.end();
      await db.stop();
    },
  };
}
