import { E_TIMEOUT, Semaphore, withTimeout } from 'async-mutex';
import postgres from 'postgres';
import { DomainError } from './errors/index.ts';
import { cancelledBy, proxyQueries } from './query-proxy.ts';
import { isHeavy, type Sql } from '../sql/db.ts';

/**
 * Heavy statements (sql/db.ts) in flight at once, as a share of the pool wait's permits: one in
 * four, so that of the eight statements a connection may have lined up (READS_LINED_UP) about two
 * are heavy searches. Deep pipelines of them only lengthened the tail: the long tail of one-typo
 * searches, 100k listings, 50 connections, pool 4, quiet machine, 2026-11-28: 8 lined up
 * 1,190-1,277 req/s at p99 123-141 ms, 2 lined up 1,220-1,226 req/s at p99 70-71 ms. A heavy
 * statement still takes one ordinary permit too; charging it four of them instead starved the
 * cheap reads beside it (mixed traffic lost 10%), and they keep eight lined up: with one or two,
 * connections idled between them and their long tail lost a fifth to a third.
 */
export const HEAVY_SHARE = 4;

/**
 * A circuit breaker around the edge's PostgreSQL pool, so that an outage answers fast 503s rather
 * than requests that hang in postgres.js's reconnect back-off.
 *
 * - Every query, `unsafe` and `begin` through the guarded pool is checked first: while the
 *   database is known to be down it fails at once with DomainError('unavailable') carrying
 *   Retry-After, without touching the pool.
 * - A connection-class failure (refused, reset, closed, connect timeout, server shutting down)
 *   opens the breaker, fails every query still waiting on the pool the same way, and starts a
 *   probe: one separate connection trying `select 1` every `probeEveryMs`. Its first success
 *   closes the breaker; `onRecover` runs then (the edge drops its cached generation).
 * - Every query also has a hard deadline (`deadlineMs`: statement timeout plus pool wait), so
 *   nothing waits forever on a hung server or a pool whose connections are stuck; passing it
 *   trips the breaker too (a probe that answers closes it again at once).
 * - With `poolWait`, at most `permits` queries and transactions are handed to the pool at once
 *   (postgres.js runs one per connection and lines the rest up behind them), and one that waits
 *   longer than `ms` for a permit fails with a 503 to retry instead of queueing (a heavy statement
 *   needs one of HEAVY_SHARE's permits too): abandoned or slow reads hold the pool at most until
 *   their statement timeout, and what arrives meanwhile is refused fast. The database is up then,
 *   so the breaker stays closed.
 */
export interface DatabaseGuardOptions {
  url: string;
  retryAfterSeconds: number;
  connectTimeoutMs: number;
  deadlineMs: number;
  probeEveryMs?: number;
  poolWait?: { permits: number; ms: number };
  onDown?(err: unknown): void;
  onRecover?(): void;
}

export interface DatabaseHealth {
  /** False while the breaker is open (the database was unreachable and has not answered a probe yet). */
  readonly up: boolean;
  /** One check with a short time cap: `select 1` through a probe connection. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01',
  '57P02',
  '57P03', // admin shutdown, crash shutdown, cannot connect now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006', // connection exceptions
]);

/** A failure that says the database (not the query) is the problem. */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: unknown; errno?: unknown } | null;
  return !!e && typeof e === 'object' && CONNECTION_CODES.has(String(e.code ?? e.errno ?? ''));
}

const slowError = (retryAfterSeconds: number) => new DomainError('unavailable', 'The database took too long to answer; retry shortly.', { retryAfterSeconds });

const busyError = (retryAfterSeconds: number) => new DomainError('unavailable', 'Every database connection is busy; retry shortly.', { retryAfterSeconds });

export function unavailableError(retryAfterSeconds: number): DomainError {
  return new DomainError('unavailable', 'The database is unavailable; retry shortly.', { retryAfterSeconds });
}

export function guardDatabase(sql: Sql, opts: DatabaseGuardOptions): { sql: Sql; health: DatabaseHealth } {
  let up = true;
  let probing = false;
  let closed = false;
  // The queries and transactions running now: the breaker opening fails each of them at once.
  // (Not a Promise.race with one long-lived tripwire promise: every race leaves a reaction on it,
  // holding that query's result until the tripwire settles, which in a healthy service is never.)
  const running = new Set<(err: unknown) => void>();
  const probe = postgres(opts.url, {
    max: 1,
    idle_timeout: 5,
    connect_timeout: opts.connectTimeoutMs / 1000,
    backoff: () => 0.1,
    onnotice: () => {},
  });
  const unavailable = () => unavailableError(opts.retryAfterSeconds);
  // Room in the pool as permits: one waiting past poolWait.ms gives up (E_TIMEOUT).
  const permits = opts.poolWait ? withTimeout(new Semaphore(opts.poolWait.permits), opts.poolWait.ms) : null;
  const heavyPermits = opts.poolWait ? withTimeout(new Semaphore(Math.max(1, Math.floor(opts.poolWait.permits / HEAVY_SHARE))), opts.poolWait.ms) : null;
  /** A permit (and for a heavy statement, a heavy one first); its release returns both. */
  const acquire = async (heavy: boolean): Promise<() => void> => {
    if (!heavy || !heavyPermits) return (await permits!.acquire())[1];
    const [, releaseHeavy] = await heavyPermits.acquire();
    try {
      const [, release] = await permits!.acquire();
      return () => {
        release();
        releaseHeavy();
      };
    } catch (err) {
      releaseHeavy();
      throw err;
    }
  };

  const ping = async (): Promise<boolean> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        probe`select 1`.execute(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('probe timed out')), opts.connectTimeoutMs + 500);
        }),
      ]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  };

  const startProbing = async () => {
    if (probing) return;
    probing = true;
    while (!closed) {
      await new Promise((r) => setTimeout(r, opts.probeEveryMs ?? 500));
      if (closed) break;
      if (await ping()) {
        up = true;
        opts.onRecover?.();
        break;
      }
    }
    probing = false;
  };

  const trip = (err: unknown) => {
    if (!up || closed) return;
    up = false;
    const waiting = [...running];
    running.clear();
    for (const fail of waiting) fail(unavailable());
    opts.onDown?.(err);
    void startProbing();
  };

  /** The promise of a query or transaction, bounded by the breaker and the deadline; connection failures become 503s. */
  const guard = <T>(run: () => PromiseLike<T>, heavy = false): Promise<T> => {
    if (!up) return Promise.reject(unavailable());
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const settle = (done: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        running.delete(fail);
        done();
      };
      const fail = (err: unknown) => settle(() => reject(err));
      running.add(fail);
      // Past the statement timeout plus the pool wait the server should have answered or cancelled:
      // it is hung or the pool starved. Trip the breaker; the probe closes it again within 0.5 s if
      // the database does answer.
      const timer = setTimeout(() => {
        trip(new Error('query deadline passed'));
        fail(unavailable());
      }, opts.deadlineMs);
      const started = permits
        ? acquire(heavy).then(
            (release) => {
              // Failed meanwhile (the breaker opened, or the deadline passed): nobody waits for it.
              if (settled) return release() as T;
              return Promise.resolve().then(run).finally(release);
            },
            (err) => {
              throw err === E_TIMEOUT ? busyError(opts.retryAfterSeconds) : err;
            },
          )
        : Promise.resolve().then(run);
      started.then(
        (value) => settle(() => resolve(value)),
        (err) => {
          // The database is up but took too long: as for an outage, a 503 to retry, not a 500.
          if (cancelledBy(err) === 'timeout') return fail(slowError(opts.retryAfterSeconds));
          if (!isConnectionError(err)) return fail(err);
          trip(err);
          fail(unavailable());
        },
      );
    });
  };

  const guarded = proxyQueries(sql, {
    query: (query, run) => (onfulfilled, onrejected) =>
      // biome-ignore lint/suspicious/noThenProperty: a thenable that runs the query when the guard does
      guard(() => ({ then: run }) as PromiseLike<unknown>, isHeavy(query)).then(onfulfilled, onrejected),
    begin: (run) => guard(run),
  });

  return {
    sql: guarded,
    health: {
      get up() {
        return up;
      },
      ping,
      async close() {
        closed = true;
        await probe.end({ timeout: 1 }).catch(() => {});
      },
    },
  };
}
