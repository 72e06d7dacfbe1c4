import { afterAll, beforeAll, expect, test } from 'bun:test';
import { loadConfig } from '../core/config.ts';
import { freshDatabase } from '../test/db.ts';
import { connect } from './db.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
}, 60_000);
afterAll(() => db?.drop());

test("the edge's connections carry their settings: UTC, the statement timeout and work_mem", async () => {
  const config = loadConfig({});
  expect(config.db.workMemMb).toBe(16);
  const sql = connect(db.url, { max: 1, statementTimeoutMs: 1500, workMemMb: config.db.workMemMb });
  try {
    const [row] = await sql<{ tz: string; timeout: string; mem: string }[]>`
      select current_setting('TimeZone') as tz, current_setting('statement_timeout') as timeout, current_setting('work_mem') as mem`;
    expect(row).toEqual({ tz: 'UTC', timeout: '1500ms', mem: '16MB' });
  } finally {
    await sql.end();
  }
  expect(loadConfig({ DB_WORK_MEM_MB: '64' }).db.workMemMb).toBe(64);
  expect(() => loadConfig({ DB_WORK_MEM_MB: '0' })).toThrow(/DB_WORK_MEM_MB/);
});
