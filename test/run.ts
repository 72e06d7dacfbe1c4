// `npm test`'s test step: `bun test` with the arguments given, with the PostgreSQL servers of the
// run started (and their templates migrated) here, before it, and stopped after it. bun test
// --parallel=N runs files in N worker processes that it ends without a hook, so no server can
// belong to one of them: each worker gets one of the N servers started here (test/db.ts).
import { availableParallelism } from 'node:os';
import { type RunDatabases, startTestServer } from './db.ts';

const args = process.argv.slice(2);
const parallel = args.map((a) => /^--parallel(?:=(\d+))?$/.exec(a)).find(Boolean);
const workers = parallel ? Number(parallel[1] ?? availableParallelism()) : 1;
// TEST_DATABASE_URL is one server the workers share (a template each run); else one embedded each.
const started = await Promise.allSettled(Array.from({ length: process.env.TEST_DATABASE_URL ? 1 : workers }, () => startTestServer()));
const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
const failed = started.find((s) => s.status === 'rejected');
if (failed) {
  await Promise.all(servers.map((s) => s.stop()));
  throw failed.reason;
}
let code = 1;
try {
  const run: RunDatabases = servers.map(({ adminUrl, template }) => ({ adminUrl, template }));
  const child = Bun.spawn([process.execPath, 'test', ...args], {
    stdio: ['inherit', 'inherit', 'inherit'],
    env: { ...process.env, TEST_RUN_DATABASES: JSON.stringify(run) },
  });
  // Ctrl-C reaches bun test too (same process group): wait for it to end, then stop the servers.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  code = await child.exited;
} finally {
  await Promise.all(servers.map((s) => s.stop()));
}
process.exit(code);
