import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort } from './harness.ts';

export interface TestRedis {
  url: string;
  stop(): Promise<void>;
  /** SIGKILL the private redis-server (fault tests); undefined with TEST_REDIS_URL. */
  kill?(): Promise<void>;
  /** Start it again on the same port after kill(). */
  restart?(): Promise<void>;
  /** SIGSTOP / SIGCONT: a hung Redis that accepts connections but never answers. */
  pause?(): void;
  resume?(): void;
}

/**
 * A real Redis for tests: TEST_REDIS_URL when set, otherwise a private redis-server (Debian's
 * package on these machines) on a free port with persistence off, stopped by the returned stop().
 * A private server can also be killed and restarted on the same port (fault tests).
 */
export async function testRedis(opts: { private?: boolean } = {}): Promise<TestRedis> {
  if (process.env.TEST_REDIS_URL && !opts.private) return { url: process.env.TEST_REDIS_URL, stop: async () => {} };
  const which = spawnSync('sh', ['-c', 'command -v redis-server']);
  if (which.status !== 0) throw new Error('Tests of the shared cache need redis-server on PATH (apt-get install redis-server) or TEST_REDIS_URL.');
  const bin = which.stdout.toString().trim();
  const port = await freePort();
  const start = () => {
    const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    return new Promise<ChildProcess>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('redis-server did not start')), 10_000);
      child.stdout!.on('data', (d: Buffer) => {
        if (/Ready to accept connections/i.test(d.toString())) {
          clearTimeout(timer);
          resolve(child);
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited ${code}`));
      });
    });
  };
  let child: ChildProcess | null = await start();
  const end = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.kill(signal);
    });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
    async restart() {
      if (!child) child = await start();
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
  };
}
