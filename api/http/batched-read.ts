import DataLoader from 'dataloader';
import type { Sql } from '../../sql/db.ts';
import type { OperationContext } from '../registry/operation.ts';

/** What a batched read needs of a handler's context: its pools. */
export type BatchContext = Pick<OperationContext, 'sql' | 'readSql'>;

/**
 * Point reads of one kind that public reads start in the same turn of the event loop, run as one
 * statement (DataLoader, with its cache off: the response cache is the cache). Under load the edge
 * starts many misses a turn (13 on average on a uniform long tail of 100k listings at 50
 * connections), and a statement costs the edge (building it, writing it to the socket) and the
 * database (running it) far more than one more row of it. A turn's batch waits for nothing else.
 *
 * `load` answers a batch in the keys' order (undefined where nothing is found). The batch runs on
 * the reads' pool, bounded as every read there is (its statement timeout and pool wait). One batch
 * per pool and scope: tests run several apps, and scope (the site) is a value of the statement.
 */
export function batchedRead<S, K, V>(load: (sql: Sql, scope: S, keys: readonly K[]) => Promise<readonly (V | undefined)[]>) {
  const loaders = new WeakMap<Sql, Map<S, DataLoader<K, V | undefined>>>();
  return (ctx: BatchContext, scope: S, key: K): Promise<V | undefined> => {
    const pool = ctx.readSql ?? ctx.sql;
    let byScope = loaders.get(pool);
    if (!byScope) loaders.set(pool, (byScope = new Map()));
    let loader = byScope.get(scope);
    if (!loader) {
      loader = new DataLoader<K, V | undefined>((keys) => load(pool, scope, keys) as Promise<(V | undefined)[]>, {
        cache: false,
        batchScheduleFn: (run) => setImmediate(run),
        maxBatchSize: 200,
      });
      byScope.set(scope, loader);
    }
    return loader.load(key);
  };
}
