import pino from 'pino';
import type { Config } from '../core/config.ts';
import { connect, type Sql } from '../sql/db.ts';
import { ensureSite } from '../sql/site.ts';
import { buildApp } from './app.ts';
import { createCache } from './http/cache.ts';
import { createRateLimiter, notePeerAddress } from './http/rate-limit.ts';

export interface RunningEdge { url: string; port: number; stop(): Promise<void> }

/** Starts the edge on Bun or Deno (web-standard fetch handler) against a migrated database. */
export async function startEdge(config: Config, databaseUrl: string, opts: { sql?: Sql } = {}): Promise<RunningEdge> {
  const log = pino({ level: config.logLevel, base: { svc: 'edge' } });
  const sql = opts.sql ?? connect(databaseUrl, { max: 20 });
  const site = await ensureSite(sql, config.siteKey, config.siteUrl);
  const [{ gen }] = await sql<{ gen: string }[]>`select last_value::text as gen from cache_generation`;
  const cache = createCache({ ttlSeconds: config.cacheTtlSeconds, redisUrl: config.redisUrl, initialGeneration: Number(gen), redis: config.redis, log });
  // Writes anywhere (this instance, another, the worker) announce a new generation.
  const listener = await sql.listen('directory_changed', (payload) => cache.advance(Number(payload) || undefined));
  const limiter = createRateLimiter({ limits: config.rateLimits, redisUrl: config.redisUrl, log, prefix: `rl:${config.siteKey}`, redis: config.redis });
  const app = buildApp({ config, sql, site, cache, log, limiter });

  const g = globalThis as { Bun?: { serve: Function }; Deno?: { serve: Function } };
  let port: number; let close: () => Promise<void>;
  // Bun's own cap sits above ours so that the edge, not Bun, answers an oversized body (413 as a
  // problem); it still stops absurd bodies before they are buffered.
  if (g.Bun) {
    const fetch = (req: Request, server: { requestIP(r: Request): { address: string } | null }) => {
      notePeerAddress(req, server.requestIP(req)?.address);
      return app.handle(req);
    };
    const server = g.Bun.serve({ port: config.port, hostname: config.host, fetch, maxRequestBodySize: config.maxBodyBytes * 4 + 65_536 });
    port = server.port; close = async () => { server.stop(true); };
  } else if (g.Deno) {
    const fetch = (req: Request, info: { remoteAddr: { hostname: string } }) => {
      notePeerAddress(req, info.remoteAddr.hostname);
      return app.handle(req);
    };
    const server = g.Deno.serve({ port: config.port, hostname: config.host, onListen: () => {} }, fetch);
    port = server.addr.port; close = () => server.shutdown();
  } else {
    throw new Error('The edge runs on Bun or Deno.');
  }
  log.info({ port }, 'edge listening');
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await close();
      await listener.unlisten().catch(() => {});
      await cache.close();
      await limiter.close();
      if (!opts.sql) await sql.end({ timeout: 5 });
    },
  };
}
