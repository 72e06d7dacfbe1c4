import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../test/ports.ts';
import { benchDatabase } from './database.ts';
import { scenarios } from './scenarios.ts';

/**
 * `bun bench/profile.ts <scenario> [out-dir]`: one bench scenario against an edge started under
 * Bun's CPU profiler; the profile (and its markdown digest) lands in out-dir for reading.
 */
const name = process.argv[2] ?? 'get_listing';
const outDir = process.argv[3] ?? '.data/profiles';
const root = join(import.meta.dirname, '..');
const db = await benchDatabase(Number(process.env.BENCH_LISTINGS ?? 100_000));
const port = await freePort();
const edge: ChildProcess = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-md', `--cpu-prof-dir=${outDir}`, join(root, 'api/main.ts')], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SITE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: db.url,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ANONYMOUS_READS: '10000000',
    RATE_LIMIT_AUTHENTICATED_READS: '10000000',
    RATE_LIMIT_WRITES: '10000000',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise<void>((resolve) => edge.stdout!.on('data', (d: Buffer) => /listening/.test(d.toString()) && resolve()));
const scenario = (await scenarios(db.sql, db.siteId)).find((s) => s.name === name);
if (!scenario) throw new Error(`no scenario named ${name}`);
const r = await autocannon({
  url: `http://127.0.0.1:${port}`,
  connections: 50,
  duration: Number(process.env.BENCH_DURATION ?? 10),
  requests: scenario.requests,
});
console.log(`${name}: ${r.requests.average} req/s, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`);
edge.kill('SIGTERM');
await new Promise((resolve) => edge.on('exit', resolve));
await db.sql.end();
await db.stop();
process.exit(0);
