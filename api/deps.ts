import type { Logger } from 'pino';
import type { Config } from '../core/config.ts';
import type { Sql } from '../sql/db.ts';
import type { ResponseCache } from './http/cache.ts';
import type { RateLimiter } from './http/rate-limit.ts';
import type { Site } from './registry/operation.ts';
import type { DatabaseHealth } from '../core/database-guard.ts';
import type { EdgeMetrics } from './observability/edge-metrics.ts';

/** What the edge's areas are built from: read once at start and handed down. */
export interface AppDeps {
  config: Config;
  sql: Sql;
  /**
   * The pool public reads run on, and only they: each statement is cut at the statement timeout,
   * at most READS_LINED_UP per connection are handed to it, and a read that waits DB_POOL_WAIT_MS for
   * room is answered 503 (core/database-guard.ts), so slow or abandoned reads build no queue.
   * Absent: reads share `sql`.
   */
  readSql?: Sql;
  site: Site;
  cache: ResponseCache;
  log: Logger;
  limiter: RateLimiter;
  /** The database breaker's view (readiness); absent when the pool is not guarded. */
  dbHealth?: DatabaseHealth;
  /** Prometheus metrics of this edge; buildApp makes a registry when none is given. */
  metrics?: EdgeMetrics;
  /**
   * Registers work the edge finishes when it stops, after its requests drain and before its pools
   * close: counts held in memory between writes. The edge serves through Bun.serve, not Elysia's
   * listen, so Elysia's own onStop hooks never run. Absent (an app built for a test or the bench):
   * nothing is finished.
   */
  atStop?: (finish: () => Promise<void>) => void;
}
