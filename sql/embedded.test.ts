import { expect, test } from 'bun:test';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/ports.ts';
import { startEmbeddedPostgres } from './embedded.ts';

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
