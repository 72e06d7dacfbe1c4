import postgres from 'postgres';

export type Sql = postgres.Sql<{}>;

/** One pool per process; statements are prepared because public reads repeat the same shapes. */
export function connect(url: string, opts: { max?: number } = {}): Sql {
  return postgres(url, {
    max: opts.max ?? 10,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => {},
    connection: { TimeZone: 'UTC' }, // weeks and days are UTC whatever the server's default
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
