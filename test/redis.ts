import { spawn, spawnSync } from 'node:child_process';
import { freePort } from './harness.ts';

/**
 * A real Redis for tests: TEST_REDIS_URL when set, otherwise a private redis-server (Debian's
 * package on these machines) on a free port with persistence off, stopped by the returned stop().
 */
export async function testRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.TEST_REDIS_URL) return { url: process.env.TEST_REDIS_URL, stop: async () => {} };
  const which = spawnSync('sh', ['-c', 'command -v redis-server']);
  if (which.status !== 0) throw new Error('Tests of the shared cache need redis-server on PATH (apt-get install redis-server) or TEST_REDIS_URL.');
  const port = await freePort();
  const child = spawn(which.stdout.toString().trim(), ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not start')), 10_000);
    child.stdout!.on('data', (d: Buffer) => { if (/Ready to accept connections/i.test(d.toString())) { clearTimeout(timer); resolve(); } });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`redis-server exited ${code}`)); });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.kill('SIGTERM'); }),
  };
}
