import Redis from 'ioredis';

/**
 * One Redis connection with bounded waits and a circuit breaker, for the edge's optional uses of
 * Redis (the read cache, the rate limits), each of which has an in-process fallback.
 *
 * - connect and every command are time-capped (`connectTimeoutMs`, `commandTimeoutMs`), so no
 *   request waits on a dead or hung Redis longer than one command's budget;
 * - the first failure opens the breaker: for `breakerMs` nothing is sent to Redis and callers use
 *   their fallback at once (no per-request timeouts piling up under load); ioredis keeps
 *   reconnecting in the background, at most every `breakerMs`;
 * - when the breaker period is over one request probes Redis (the others keep the fallback), so a
 *   hung Redis delays that one request by one command's budget, not every request in flight;
 *   once a probe answers (or the connection is ready again) Redis is used again.
 *
 * A warning is logged when Redis goes away (at most every 30 s) and an info line when it is back.
 */
export interface RedisGuardOptions {
  connectTimeoutMs: number;
  commandTimeoutMs: number;
  breakerMs: number;
  /** What uses it, for the log lines. */
  name: string;
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };
}

export class RedisGuard {
  readonly client: Redis;
  private openUntil = 0;
  private failed = false;
  private probing = false;
  private closing = false;
  private lastWarn = 0;

  constructor(
    url: string,
    private opts: RedisGuardOptions,
  ) {
    // The offline queue stays on so that the first requests wait (commandTimeout-bounded) for the
    // initial connection; after a failure the breaker keeps commands from queueing at all.
    this.client = new Redis(url, {
      connectTimeout: opts.connectTimeoutMs,
      commandTimeout: opts.commandTimeoutMs,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: true,
      retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 10), Math.max(100, opts.breakerMs)),
    });
    this.client.on('error', (err: Error) => this.noteFailure(err));
    this.client.on('close', () => {
      if (!this.closing) this.noteFailure(new Error('connection closed'));
    });
    this.client.on('ready', () => {
      if (this.failed) opts.log?.info?.({ what: opts.name }, `${opts.name}: Redis is back`);
      this.failed = false;
    });
  }

  /** Redis is worth trying now: connected (or still making the first connection) and the breaker closed. */
  available(): boolean {
    if (Date.now() < this.openUntil) return false;
    if (this.failed) return this.client.status === 'ready' && !this.probing;
    return true;
  }

  /** Runs fn against Redis, or fallback() when the breaker is open or the command fails. */
  async run<T>(fn: (r: Redis) => Promise<T>, fallback: () => T | Promise<T>): Promise<T> {
    if (!this.available()) return fallback();
    // After a failure the first caller is the probe; until it answers, the others use the fallback.
    const probe = this.failed;
    if (probe) this.probing = true;
    try {
      const out = await fn(this.client);
      if (probe) this.failed = false;
      return out;
    } catch (err) {
      this.noteFailure(err);
      return fallback();
    } finally {
      if (probe) this.probing = false;
    }
  }

  /** Opens the breaker (and warns, at most every 30 s): also for a failure a library caught itself. */
  noteFailure(err: unknown) {
    if (this.closing) return;
    this.failed = true;
    this.openUntil = Date.now() + this.opts.breakerMs;
    if (Date.now() - this.lastWarn < 30_000) return;
    this.lastWarn = Date.now();
    this.opts.log?.warn(
      { err: err instanceof Error ? err.message : String(err), breakerMs: this.opts.breakerMs },
      `${this.opts.name}: Redis unavailable, using in-process fallback`,
    );
  }

  async close() {
    this.closing = true;
    if (this.client.status === 'ready') await this.client.quit().catch(() => {});
    else this.client.disconnect();
  }
}
