import pino from 'pino';
import type { Config } from '../core/config.ts';
import { type ConnectOptions, connect, type Sql } from '../sql/db.ts';
import { guardDatabase } from '../core/database-guard.ts';
import { ensureSite } from '../sql/site.ts';
import { vocabularyOf } from '../sql/queries/search-vocabulary.ts';
import { buildApp } from './app.ts';
import { createCache } from './http/cache.ts';
import { createRateLimiter, notePeerAddress } from './http/rate-limit.ts';

// The generation now: a sequence that was never used reads last_value 1 with is_called false, and
// its first nextval (the first change) is 1 too, so reading last_value alone would miss that change.
const GENERATION = 'select (case when is_called then last_value else last_value - 1 end)::text as gen from cache_generation';

export interface RunningEdge {
  url: string;
  /** 0 when started with listen: false. */
  port: number;
  /** Answers a request in process, as from the loopback address (no socket). */
  handle(request: Request): Promise<Response>;
  stop(): Promise<void>;
}

/** The settings of the edge's two pools' connections. */
export const edgePoolOptions = (config: Config): ConnectOptions => ({
  max: config.db.poolSize,
  connectTimeoutMs: config.db.connectTimeoutMs,
  statementTimeoutMs: config.db.statementTimeoutMs,
  workMemMb: config.db.workMemMb,
  parallelWorkers: config.db.parallelWorkers,
});

/**
 * Statements of public reads handed to one connection of the reads' pool at a time: the one it
 * runs and the rest lined up behind it (postgres.js pipelines them). Past that a read waits for
 * room, up to DB_POOL_WAIT_MS. With one or two, connections idle between statements and the long
 * tail of reads lost a fifth to a third of its throughput; with eight it is as fast as without a
 * bound (docs/performance.md, 2026-11-28).
 */
export const READS_LINED_UP = 8;

/**
 * Starts the edge on Bun or Deno (web-standard fetch handler) against a migrated database.
 * `listen: false` builds the same edge without a socket: requests go to `handle` (tests of the
 * edge that are not about sockets).
 */
export async function startEdge(config: Config, databaseUrl: string, opts: { sql?: Sql; listen?: boolean } = {}): Promise<RunningEdge> {
  const log = pino({ level: config.logLevel, base: { svc: 'edge' } });
  // The database's bound on one query: its statement timeout plus the wait for a connection.
  const boundMs = config.db.statementTimeoutMs ? config.db.statementTimeoutMs + config.db.poolWaitMs : Infinity;
  const poolOptions = edgePoolOptions(config);
  const guardOptions = {
    url: databaseUrl,
    retryAfterSeconds: config.db.retryAfterSeconds,
    connectTimeoutMs: config.db.connectTimeoutMs,
    deadlineMs: Math.min(boundMs, 2 ** 31 - 1),
  };
  const pool = opts.sql ?? connect(databaseUrl, poolOptions);
  // Requests go through the breaker: a database outage answers 503 with Retry-After at once.
  let cache: ReturnType<typeof createCache> | undefined;
  const { sql, health } = guardDatabase(pool, {
    ...guardOptions,
    onDown: (err) => log.warn({ err: err instanceof Error ? err.message : String(err) }, 'database unavailable: answering 503 until it is back'),
    // Notifications sent while the listener was cut off are lost: catch up with the generation.
    onRecover: () => {
      log.info('database is back');
      void relisten();
    },
  });
  // Public reads have their own pool (AppDeps.readSql), behind a breaker of its own. Their queries
  // are never cancelled: abandoned ones run on to the statement timeout at most, and a read that
  // finds every connection busy for DB_POOL_WAIT_MS is answered 503 rather than queued.
  const readPool = opts.sql ? undefined : connect(databaseUrl, poolOptions);
  const poolWait = { permits: READS_LINED_UP * config.db.poolSize, ms: config.db.poolWaitMs };
  const reads = readPool ? guardDatabase(readPool, { ...guardOptions, poolWait }) : undefined;
  const site = await ensureSite(sql, config.siteKey, config.siteUrl);
  // The reads' copy of the search vocabulary, read before the first search: a search then waits
  // for the pool as any read does, never behind a first load that waits for it (typo-plan.ts).
  await vocabularyOf(reads?.sql ?? sql).get();
  const [{ gen }] = await sql.unsafe<{ gen: string }[]>(GENERATION);
  cache = createCache({
    ttlSeconds: config.cacheTtlSeconds,
    maxBytes: config.cacheMaxMb * 1024 * 1024,
    redisUrl: config.redisUrl,
    initialGeneration: Number(gen),
    redis: config.redis,
    log,
  });
  // Writes anywhere (this instance, another, the worker) announce a new generation.
  const onChange = (payload: string) => cache!.advance(Number(payload) || undefined);
  const catchUp = async () => {
    const [{ gen: now }] = await pool.unsafe<{ gen: string }[]>(GENERATION);
    cache!.advance(Number(now));
  };
  let listener = await pool.listen('directory_changed', onChange);
  // postgres.js re-listens once when its connection closes, and gives up if the database is still
  // down then: after an outage the listener is made again (a no-op cost when it had survived).
  let stopped = false;
  const relisten = async () => {
    await listener.unlisten().catch(() => {});
    for (let i = 0; i < 10 && !stopped; i++) {
      try {
        listener = await pool.listen('directory_changed', onChange, () => {
          void catchUp().catch(() => {});
        });
        return;
      } catch (err) {
        log.warn({ err: err instanceof Error ? err.message : String(err) }, 'could not listen for directory changes yet');
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  };
  const limiter = createRateLimiter({ limits: config.rateLimits, redisUrl: config.redisUrl, log, prefix: `rl:${config.siteKey}`, redis: config.redis });
  const finishing: (() => Promise<void>)[] = [];
  const app = buildApp({ config, sql, readSql: reads?.sql, site, cache, log, limiter, dbHealth: health, atStop: (finish) => finishing.push(finish) });

  const g = globalThis as { Bun?: { serve: Function }; Deno?: { serve: Function } };
  let port: number;
  let close: () => Promise<void>;
  const handle = (req: Request) => {
    notePeerAddress(req, '127.0.0.1');
    return app.handle(req);
  };
  // Once draining, every response says Connection: close, so a keep-alive client opens no further
  // request on a connection that is about to go away: its last response is a complete one.
  let draining = false;
  const closing = (res: Response): Response => {
    if (!draining) return res;
    try {
      res.headers.set('connection', 'close');
      return res;
    } catch {
      // Some responses have immutable headers: copy them.
      const headers = new Headers(res.headers);
      headers.set('connection', 'close');
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    }
  };
  if (opts.listen === false) {
    port = 0;
    close = async () => {};
  } else if (g.Bun) {
    // Bun's own cap sits above ours so that the edge, not Bun, answers an oversized body (413 as a
    // problem); it still stops absurd bodies before they are buffered.
    const fetch = async (req: Request, server: { requestIP(r: Request): { address: string } | null }) => {
      notePeerAddress(req, server.requestIP(req)?.address);
      return closing(await app.handle(req));
    };
    // Bun cuts a request that sends nothing for 10 s by default: before the database's own bound
    // (statement timeout plus pool wait) answers it with a problem. The edge's cap sits above that
    // bound (Bun's maximum is 255 s); keep-alive connections idle as long.
    const idleTimeout = Math.min(255, Math.ceil(boundMs / 1000) + 5);
    const server = g.Bun.serve({ port: config.port, hostname: config.host, fetch, idleTimeout, maxRequestBodySize: config.maxBodyBytes * 4 + 65_536 });
    port = server.port;
    close = async () => {
      // Stop listening at once (new connections are refused), let the requests in flight finish,
      // and cut only what is still running after EDGE_DRAIN_SECONDS. stop(true) alone would cut
      // them all: a client mid-request would get an empty reply.
      let timer: ReturnType<typeof setTimeout> | undefined;
      draining = true;
      const drained = Promise.resolve(server.stop(false)).then(() => true);
      const late = new Promise<false>((r) => {
        timer = setTimeout(() => r(false), config.drainSeconds * 1000);
      });
      const inTime = await Promise.race([drained, late]);
      clearTimeout(timer);
      if (!inTime) log.warn({ seconds: config.drainSeconds }, 'requests still running after the drain time: cutting them');
      server.stop(true);
    };
  } else if (g.Deno) {
    const fetch = (req: Request, info: { remoteAddr: { hostname: string } }) => {
      notePeerAddress(req, info.remoteAddr.hostname);
      return app.handle(req);
    };
    const server = g.Deno.serve({ port: config.port, hostname: config.host, onListen: () => {} }, fetch);
    port = server.addr.port;
    close = () => server.shutdown();
  } else {
    throw new Error('The edge runs on Bun or Deno.');
  }
  if (port) log.info({ port }, 'edge listening');
  return {
    port,
    url: port ? `http://127.0.0.1:${port}` : config.siteUrl,
    handle,
    async stop() {
      log.info('draining: no new connections, waiting for requests in flight');
      await close();
      stopped = true;
      // No request is left to count: what was counted since the last write is written now.
      await Promise.all(finishing.map((finish) => finish()));
      await listener.unlisten().catch(() => {});
      await cache.close();
      await limiter.close();
      await health.close();
      await reads?.health.close();
      if (!opts.sql) await pool.end({ timeout: 5 });
      await readPool?.end({ timeout: 5 });
    },
  };
}
