import type { Sql } from '../sql/db.ts';

/**
 * Statements of this database (other than the caller's) waiting on a lock: with a table held by
 * holdTable, the reads that reached PostgreSQL.
 */
export async function waitingOnLocks(sql: Sql): Promise<number> {
  const [{ n }] = await sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`;
  return n;
}

/** Holds an exclusive lock on a table until the returned function is called (and awaited). */
export async function holdTable(sql: Sql, table: string): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const tx = sql.begin(async (tx) => {
    await tx`lock table ${tx(table)} in access exclusive mode`;
    locked();
    await released;
  });
  await isLocked;
  return async () => {
    release();
    await tx;
  };
}
