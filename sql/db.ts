import postgres from 'postgres';

export type Sql = postgres.Sql<{}>;

export interface ConnectOptions {
  max?: number;
  /** Time cap of opening one connection (default 10 s). */
  connectTimeoutMs?: number;
  /** Server-side statement_timeout of every statement on these connections (default none). */
  statementTimeoutMs?: number;
  /** work_mem of these connections in MB (default: the server's). */
  workMemMb?: number;
  /** max_parallel_workers_per_gather of these connections (default: the server's). */
  parallelWorkers?: number;
}

/**
 * One pool per process; statements are prepared because public reads repeat the same shapes.
 * After a lost connection postgres.js reconnects with a back-off; ours is capped at one second
 * (its default grows to 20 s), so a pool is usable again within a second of the server's return.
 */
export function connect(url: string, opts: ConnectOptions = {}): Sql {
  return postgres(url, {
    max: opts.max ?? 10,
    idle_timeout: 30,
    connect_timeout: (opts.connectTimeoutMs ?? 10_000) / 1000,
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
    onnotice: () => {},
    connection: {
      TimeZone: 'UTC', // weeks and days are UTC whatever the server's default
      ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
      ...(opts.workMemMb ? { work_mem: `${opts.workMemMb}MB` } : {}),
      ...(opts.parallelWorkers !== undefined ? { max_parallel_workers_per_gather: String(opts.parallelWorkers) } : {}),
    },
    types: { bigint: postgres.BigInt },
    transform: { undefined: null },
  }) as unknown as Sql;
}

/**
 * Runs fn in one transaction. The transaction object runs the same queries as the pool, but
 * postgres.js types it apart (TransactionSql); this is the one place that says so.
 */
export function transaction<T>(sql: Sql, fn: (t: Sql) => Promise<T>): Promise<T> {
  return sql.begin((tx) => fn(tx as unknown as Sql)) as Promise<T>;
}

/**
 * Statements that cost the database about as much as several ordinary reads (a typo-corrected
 * search: about 1 ms of CPU against 0.03-0.2 ms). A guarded pool (core/database-guard.ts) lines up
 * fewer of them behind each connection: postgres.js pipelines queries onto busy connections, and
 * every read lined up behind a slow statement waits for it.
 */
const heavyQueries = new WeakSet<object>();

/** Marks a query (before it is awaited) as heavy; returns it. */
export function heavy<Q extends object>(query: Q): Q {
  heavyQueries.add(query);
  return query;
}

export const isHeavy = (query: object): boolean => heavyQueries.has(query);
