import Redis from 'ioredis';

/**
 * Short-lived cache for public read responses. Keys carry a generation number; a write bumps the
 * generation (a Postgres sequence, announced with NOTIFY directory_changed), so every instance
 * stops serving what it cached before the write. Entries live in process memory, or in Redis
 * when REDIS_URL is set so that instances share them.
 */
export interface CachedBody { body: string; etag: string }

export interface ResponseCache {
  get(key: string): Promise<CachedBody | null>;
  set(key: string, value: CachedBody): Promise<void>;
  /** Raises the generation to at least `gen` (from a notification) or by one (a local write). */
  advance(gen?: number): void;
  readonly generation: number;
  close(): Promise<void>;
}

class MemoryStore {
  private map = new Map<string, { v: CachedBody; exp: number }>();
  constructor(private max = 5000) {}
  get(k: string): CachedBody | null {
    const e = this.map.get(k);
    if (!e) return null;
    if (e.exp < Date.now()) { this.map.delete(k); return null; }
    return e.v;
  }
  set(k: string, v: CachedBody, ttlMs: number) {
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value!); // oldest first
    this.map.set(k, { v, exp: Date.now() + ttlMs });
  }
  clear() { this.map.clear(); }
}

export function createCache(opts: { ttlSeconds: number; redisUrl: string | null; initialGeneration: number }): ResponseCache {
  let gen = opts.initialGeneration;
  const ttl = opts.ttlSeconds;
  const mem = new MemoryStore();
  const redis = opts.redisUrl ? new Redis(opts.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: true }) : null;
  redis?.on('error', () => {}); // a cache outage degrades to uncached reads; it never fails a request
  const k = (key: string) => `dir:cache:${gen}:${key}`;
  return {
    get generation() { return gen; },
    async get(key) {
      if (ttl === 0) return null;
      if (!redis) return mem.get(k(key));
      try {
        const raw = await redis.get(k(key));
        return raw ? (JSON.parse(raw) as CachedBody) : null;
      } catch { return null; }
    },
    async set(key, value) {
      if (ttl === 0) return;
      if (!redis) return mem.set(k(key), value, ttl * 1000);
      try { await redis.set(k(key), JSON.stringify(value), 'EX', ttl); } catch { /* see above */ }
    },
    advance(next) {
      const target = next ?? gen + 1;
      if (target > gen) { gen = target; mem.clear(); }
    },
    async close() { await redis?.quit().catch(() => {}); },
  };
}
