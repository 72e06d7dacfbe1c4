import { afterAll, beforeAll, expect, test } from 'bun:test';
import { loadConfig } from '../core/config.ts';
import { freshDatabase } from '../test/db.ts';
import { edgePoolOptions } from '../api/server.ts';
import { connect } from './db.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
}, 60_000);
afterAll(() => db?.drop());

test("the edge's connections carry their settings: UTC, the statement timeout, work_mem, no parallel workers", async () => {
  const config = loadConfig({ DB_STATEMENT_TIMEOUT_MS: '1500' });
  expect(config.db.workMemMb).toBe(16);
  const sql = connect(db.url, { ...edgePoolOptions(config), max: 1 });
  try {
    const [row] = await sql<{ tz: string; timeout: string; mem: string; parallel: string }[]>`
      select current_setting('TimeZone') as tz, current_setting('statement_timeout') as timeout, current_setting('work_mem') as mem,
             current_setting('max_parallel_workers_per_gather') as parallel`;
    expect(row).toEqual({ tz: 'UTC', timeout: '1500ms', mem: '16MB', parallel: '0' });
  } finally {
    await sql.end();
  }
  expect(loadConfig({ DB_WORK_MEM_MB: '64' }).db.workMemMb).toBe(64);
  expect(() => loadConfig({ DB_WORK_MEM_MB: '0' })).toThrow(/DB_WORK_MEM_MB/);
  expect(loadConfig({ DB_PARALLEL_WORKERS: '2' }).db.parallelWorkers).toBe(2);
  expect(() => loadConfig({ DB_PARALLEL_WORKERS: '-1' })).toThrow(/DB_PARALLEL_WORKERS/);
});

test('a statement that fails part way through its rows leaves the next one on its connection whole', async () => {
  // postgres.js counted rows per connection and reset the count only on success, so the statement
  // after one that failed mid-stream (a cancelled or timed-out read, say) came back with holes
  // where its first rows belonged: get_listing batches answered 500 after an abandoned search.
  // Fixed by patches/postgres+*.patch (upstream porsager/postgres#1119, #1181: open).
  const sql = connect(db.url, { max: 1 });
  try {
    // Three rows, then a division by zero on the fourth; the second statement is pipelined behind it.
    const failing = sql`select i, 1 / (4 - i) as boom from generate_series(1, 10) i`.then(
      () => 'resolved',
      (e: Error) => e.message,
    );
    const next = sql<{ x: number }[]>`select x from generate_series(1, 5) x`;
    expect(await failing).toMatch(/division by zero/);
    const rows = await next;
    expect(rows.length).toBe(5);
    expect(rows.map((r) => r.x)).toEqual([1, 2, 3, 4, 5]);
    // And one not pipelined, after another failure.
    await sql`select 1 / (2 - i) from generate_series(1, 3) i`.catch(() => {});
    expect([...(await sql<{ x: number }[]>`select 7 as x`)]).toEqual([{ x: 7 }]);
  } finally {
    await sql.end();
  }
});
