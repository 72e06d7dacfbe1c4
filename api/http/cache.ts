import { LRUCache } from 'lru-cache';
import { RedisGuard, type RedisGuardOptions } from './redis-guard.ts';

/**
 * Short-lived cache for public read responses. Keys carry a generation number; a write bumps the
 * generation (a Postgres sequence, announced with NOTIFY directory_changed), so every instance
 * stops serving what it cached before the write. Entries live in process memory, or in Redis
 * when REDIS_URL is set so that instances share them. When Redis is down or slow (each command is
 * time-capped, and a breaker skips Redis for a while after a failure), the in-process store serves
 * instead, so an outage costs at most one command's time cap and never fails a request.
 */
export interface CachedBody {
  body: string;
  etag: string;
  /** Where a list answer stands (its Link headers), kept beside the body so a hit needn't parse it. */
  paging?: Paging;
}

export interface Paging {
  page: number;
  has_more: boolean;
}

export interface ResponseCache {
  get(key: string): Promise<CachedBody | null>;
  set(key: string, value: CachedBody): Promise<void>;
  /** Raises the generation to at least `gen` (from a notification) or by one (a local write). */
  advance(gen?: number): void;
  readonly generation: number;
  /** 'off' without REDIS_URL; otherwise whether the Redis connection is usable now (readiness). */
  readonly redis: 'up' | 'down' | 'off';
  close(): Promise<void>;
}

/** What a cached answer holds in memory: its strings at two bytes a character (the runtime's wide form), and their wrappers. */
export const entryBytes = (k: string, v: CachedBody) => 2 * (k.length + v.body.length + v.etag.length) + 200;

/**
 * The in-process store: bounded by bytes, not entries, since an answer can be a 300-byte list or a
 * 60 KB page; the least recently used go first, and an entry past its lifetime is never served.
 */
class MemoryStore {
  private lru: LRUCache<string, CachedBody>;
  constructor(maxBytes: number, ttlMs: number, now?: () => number) {
    this.lru = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (v, k) => entryBytes(k, v),
      ttl: Math.max(1, ttlMs),
      // lru-cache reads its clock through `perf`; a test passes its own to move time.
      ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
    });
  }
  get(k: string): CachedBody | null {
    return this.lru.get(k) ?? null;
  }
  set(k: string, v: CachedBody) {
    // An answer larger than the whole budget is not kept (lru-cache would refuse it anyway).
    if (entryBytes(k, v) <= this.lru.maxSize) this.lru.set(k, v);
  }
  clear() {
    this.lru.clear();
  }
}

export interface CacheOptions {
  ttlSeconds: number;
  /** Budget of the in-process store, bytes (default 32 MB). */
  maxBytes?: number;
  redisUrl: string | null;
  initialGeneration: number;
  /** Time caps and breaker of the Redis connection (defaults: config's defaults). */
  redis?: Omit<RedisGuardOptions, 'name' | 'log'>;
  log?: RedisGuardOptions['log'];
  /** The in-process store's clock in milliseconds (default: performance.now); tests move their own. */
  now?: () => number;
}

export function createCache(opts: CacheOptions): ResponseCache {
  let gen = opts.initialGeneration;
  const ttl = opts.ttlSeconds;
  const mem = new MemoryStore(opts.maxBytes ?? 32 * 1024 * 1024, ttl * 1000, opts.now);
  const redis = opts.redisUrl
    ? new RedisGuard(opts.redisUrl, { connectTimeoutMs: 1000, commandTimeoutMs: 250, breakerMs: 5000, ...opts.redis, name: 'read cache', log: opts.log })
    : null;
  const k = (key: string) => `dir:cache:${gen}:${key}`;
  // The in-process store is emptied whenever the generation moves, so its keys need no generation
  // (building the prefixed key cost a new string and its hash on every hit).
  return {
    get generation() {
      return gen;
    },
    get redis() {
      return !redis ? 'off' : redis.available() && redis.client.status === 'ready' ? 'up' : 'down';
    },
    async get(key) {
      if (ttl === 0) return null;
      if (!redis) return mem.get(key);
      const kk = k(key);
      return redis.run(
        async (r) => {
          const raw = await r.get(kk);
          return raw ? (JSON.parse(raw) as CachedBody) : null;
        },
        () => mem.get(key),
      );
    },
    async set(key, value) {
      if (ttl === 0) return;
      const kk = k(key);
      if (!redis) return mem.set(key, value);
      await redis.run(
        async (r) => {
          await r.set(kk, JSON.stringify(value), 'EX', ttl);
        },
        () => mem.set(key, value),
      );
    },
    advance(next) {
      const target = next ?? gen + 1;
      if (target > gen) {
        gen = target;
        mem.clear();
      }
    },
    async close() {
      await redis?.close();
    },
  };
}
