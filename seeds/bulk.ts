// Multi-row inserts in chunks that stay under PostgreSQL's 65535 bind parameters per statement.
import type { Sql } from '../sql/db.ts';

export type Row = Record<string, unknown>;

const chunkSize = (rows: Row[]) => Math.max(1, Math.floor(30_000 / Math.max(1, Object.keys(rows[0]).length)));

export async function insertMany(sql: Sql, table: string, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const size = chunkSize(rows);
  for (let i = 0; i < rows.length; i += size) {
    await sql`insert into ${sql(table)} ${sql(rows.slice(i, i + size) as any)}`;
  }
}

/** Inserts and returns the given columns of every row, in insert order (bigints as numbers). */
export async function insertReturning(sql: Sql, table: string, rows: Row[], columns: string[]): Promise<Record<string, any>[]> {
  const out: Record<string, any>[] = [];
  if (rows.length === 0) return out;
  const size = chunkSize(rows);
  for (let i = 0; i < rows.length; i += size) {
    const got = await sql`insert into ${sql(table)} ${sql(rows.slice(i, i + size) as any)} returning ${sql(columns)}`;
    for (const r of got) {
      const o: Record<string, any> = {};
      for (const c of columns) o[c] = typeof r[c] === 'bigint' ? Number(r[c]) : r[c];
      out.push(o);
    }
  }
  return out;
}
