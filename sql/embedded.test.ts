import { expect, test } from 'bun:test';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../core/config.ts';
import { testServer } from '../test/db.ts';
import { freePort } from '../test/ports.ts';
import { connect } from './db.ts';
import { defaultSharedBuffersMb, startEmbeddedPostgres } from './embedded.ts';

test('a failed embedded start says what failed, why, and what to do (never a bare undefined)', async () => {
  const port = await freePort();
  const squatter = createServer().listen(port, '127.0.0.1');
  const dir = mkdtempSync(join(tmpdir(), 'embedded-fail-'));
  chmodSync(dir, 0o755); // as root, PostgreSQL runs as another user that must enter it
  try {
    const err = await startEmbeddedPostgres(join(dir, 'pg'), port).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    const message = (err as Error).message;
    expect(message).toContain('could not start');
    expect(message).toContain(`port ${port}`);
    expect(message).toContain('Address already in use');
    expect(message).toContain('What to do');
  } finally {
    squatter.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the embedded server runs with its shared_buffers (a quarter of the memory, 128 MB to 1 GB, or EMBEDDED_PG_SHARED_BUFFERS_MB) and reads its pages itself', async () => {
  const GB = 2 ** 30;
  expect(defaultSharedBuffersMb(GB / 4)).toBe(128);
  expect(defaultSharedBuffersMb(2 * GB)).toBe(512);
  expect(defaultSharedBuffersMb(24 * GB)).toBe(1024);
  expect(loadConfig({}).embeddedPgSharedBuffersMb).toBe(defaultSharedBuffersMb());
  expect(loadConfig({ EMBEDDED_PG_SHARED_BUFFERS_MB: '256' }).embeddedPgSharedBuffersMb).toBe(256);
  expect(() => loadConfig({ EMBEDDED_PG_SHARED_BUFFERS_MB: 'lots' })).toThrow(/EMBEDDED_PG_SHARED_BUFFERS_MB/);
  // The suite's own server is the embedded one unless TEST_DATABASE_URL names another.
  const { adminUrl } = await testServer();
  const sql = connect(adminUrl, { max: 1 });
  try {
    const [{ mb, io }] = await sql<{ mb: number; io: string }[]>`
      select (select setting::int * 8 / 1024 from pg_settings where name = 'shared_buffers') as mb,
             (select setting from pg_settings where name = 'io_method') as io`;
    if (!process.env.TEST_DATABASE_URL) {
      expect(mb).toBe(defaultSharedBuffersMb());
      // A page missing from shared buffers is read by the backend itself, from the kernel's cache.
      expect(io).toBe('sync');
    } else expect(mb).toBeGreaterThan(0);
  } finally {
    await sql.end();
  }
});
