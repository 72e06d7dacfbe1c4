import { afterAll } from 'bun:test';
import { stopTestServer } from './db.ts';

// Preloaded once per `bun test` run: the shared PostgreSQL starts lazily on first use and stops here.
afterAll(async () => {
  await stopTestServer();
});
