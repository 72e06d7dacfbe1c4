import DataLoader from 'dataloader';
import { cancellableSql } from '../../core/cancellable-sql.ts';
import type { Sql } from '../../sql/db.ts';
import type { OperationContext } from '../registry/operation.ts';

/** What a batched read needs of a handler's context: its pools and the signal of its waiters. */
export type BatchContext = Pick<OperationContext, 'sql' | 'readSql' | 'signal'>;

interface Call<K> {
  key: K;
  signal?: AbortSignal;
}

/**
 * A signal that aborts once every one of `signals` has; never when one is missing (someone waits
 * without a client that could go away), as a shared read in single-flight.ts.
 */
function everyGone(signals: readonly (AbortSignal | undefined)[]): AbortSignal | undefined {
  if (signals.some((s) => !s)) return undefined;
  const controller = new AbortController();
  let left = signals.length;
  const gone = () => {
    if (--left === 0) controller.abort();
  };
  for (const s of signals as AbortSignal[]) {
    if (s.aborted) gone();
    else s.addEventListener('abort', gone, { once: true });
  }
  return controller.signal;
}

/**
 * Point reads of one kind that public reads start in the same turn of the event loop, run as one
 * statement (DataLoader, with its cache off: the response cache is the cache). Under load the edge
 * starts many misses a turn (13 on average on a uniform long tail of 100k listings at 50
 * connections), and a statement costs the edge (building it, writing it to the socket) and the
 * database (running it) far more than one more row of it. A turn's batch waits for nothing else.
 *
 * `load` answers a batch in the keys' order (undefined where nothing is found). The batch runs on
 * the reads' pool and is cancelled in the database once every request waiting on it has gone (the
 * handler's `signal`), as an unbatched read is (execute.ts). One batch per pool and scope: tests
 * run several apps, and scope (the site) is a value of the statement.
 */
export function batchedRead<S, K, V>(load: (sql: Sql, scope: S, keys: readonly K[]) => Promise<readonly (V | undefined)[]>) {
  const loaders = new WeakMap<Sql, Map<S, DataLoader<Call<K>, V | undefined>>>();
  return (ctx: BatchContext, scope: S, key: K): Promise<V | undefined> => {
    // Without a reads' pool, `sql` is the shared pool as it is (nothing is cancelled: readsFor).
    const pool = ctx.readSql ?? ctx.sql;
    const cancellable = ctx.readSql !== undefined;
    let byScope = loaders.get(pool);
    if (!byScope) loaders.set(pool, (byScope = new Map()));
    let loader = byScope.get(scope);
    if (!loader) {
      loader = new DataLoader<Call<K>, V | undefined>(
        (calls) => {
          const signal = cancellable ? everyGone(calls.map((c) => c.signal)) : undefined;
          const sql = signal ? cancellableSql(pool, signal) : pool;
          return load(
            sql,
            scope,
            calls.map((c) => c.key),
          ) as Promise<(V | undefined)[]>;
        },
        { cache: false, batchScheduleFn: (run) => setImmediate(run), maxBatchSize: 200 },
      );
      byScope.set(scope, loader);
    }
    return loader.load({ key, signal: ctx.signal });
  };
}
