import type { Sql } from '../sql/db.ts';
import { cancelledBy, proxyQueries, type RunQuery } from './query-proxy.ts';

/** The failure of a query stopped because the request it served was abandoned by its client. */
export class RequestAbandoned extends Error {
  constructor() {
    super('The client closed the request; its queries were cancelled.');
    this.name = 'RequestAbandoned';
  }
}

/** Whether an error is (or stems from) an abandoned request: nothing to log, nobody to answer. */
export const isAbandoned = (err: unknown) => err instanceof RequestAbandoned;

interface Cancellable {
  /** postgres.js's own: what query.cancel() calls, returning the promise that cancel() drops. */
  canceller?: ((q: Cancellable) => Promise<unknown>) | null;
  /** postgres.js's own: the query is the one its connection runs now (not waiting in its pipeline). */
  active?: boolean;
}

/**
 * Cancels one running query. query.cancel() returns nothing and leaves the promise of PostgreSQL's
 * cancel connection unhandled: a reset on that short-lived socket (seen under load) then became an
 * unhandled rejection that ended the process. So the canceller is called here and its failure
 * caught: a cancel that fails leaves the query to the statement timeout, as before.
 */
function cancel(q: Cancellable) {
  const canceller = q.canceller;
  // Only the statement a connection runs now. postgres.js pipelines queries on a busy connection,
  // and cancelling one still waiting in that line left it unanswered for good (a get_listing
  // that waited past its deadline tripped the breaker in the bench); one that waits is short.
  if (typeof canceller !== 'function' || q.active !== true) return;
  q.canceller = null;
  canceller(q).catch(() => {});
}

/**
 * The pool as seen by one request's reads: when `signal` aborts (its client went away), every query
 * of it still running is cancelled on the server (postgres.js sends PostgreSQL's CancelRequest), and
 * later ones fail at once, so an abandoned search stops costing the database instead of running to
 * the statement timeout. Only queries actually started are cancelled: a postgres.js query is lazy,
 * and a template used as a fragment of another query never runs on its own. Use it on a pool that
 * only such reads share (AppDeps.readSql): a cancel can land after its query ended and stop the
 * next one on that connection, which is then run again here.
 */
export function cancellableSql(sql: Sql, signal: AbortSignal): Sql {
  const started = new Set<Cancellable>();
  signal.addEventListener(
    'abort',
    () => {
      for (const q of started) cancel(q);
      started.clear();
    },
    { once: true },
  );
  const hook = (query: object, run: RunQuery, again?: () => object): RunQuery => {
    const q = query as Cancellable;
    return (onfulfilled, onrejected) => {
      if (signal.aborted) return Promise.reject(new RequestAbandoned()).then(onfulfilled, onrejected);
      started.add(q);
      // One hop: the caller's own handlers run here, with the query's settling noted first.
      return run(
        (v) => {
          started.delete(q);
          return onfulfilled ? onfulfilled(v) : v;
        },
        (err) => {
          started.delete(q);
          // Cancelled, but not by this request: a cancel meant for another read on this connection
          // landed late. A read on the reads' pool is safe to run again, once.
          if (!signal.aborted && again && cancelledBy(err) === 'user') {
            const fresh = again() as PromiseLike<unknown>;
            return hook(fresh, (a, b) => fresh.then(a, b))(onfulfilled, onrejected);
          }
          const e = signal.aborted ? new RequestAbandoned() : err;
          if (onrejected) return onrejected(e);
          throw e;
        },
      );
    };
  };
  return proxyQueries(sql, { query: hook });
}

/**
 * The pool one request's public reads run on: the reads' own, made cancellable for `signal`, or
 * the shared pool as it is when there is no reads' pool (nothing is cancelled then).
 */
export const readsFor = (pools: { sql: Sql; readSql?: Sql }, signal: AbortSignal): Sql => (pools.readSql ? cancellableSql(pools.readSql, signal) : pools.sql);
