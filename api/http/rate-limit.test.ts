import { afterAll, beforeAll, describe, expect, jest, test } from 'bun:test';
import Redis from 'ioredis';
import { eventually } from '../../test/eventually.ts';
import { freePort } from '../../test/ports.ts';
import { testRedis } from '../../test/redis.ts';
import {
  addressKey,
  clientAddress,
  createRateLimiter,
  notePeerAddress,
  rateLimitedResponse,
  rateLimitHeaders,
  rateTarget,
  type RateDecision,
  type RateLimiter,
} from './rate-limit.ts';

const limits = (windowSeconds: number, n: number) => ({ windowSeconds, anonymousReads: n, authenticatedReads: n + 1, writes: n + 2 });
const uniquePrefix = () => `test:rl:${crypto.randomUUID()}`;

async function exhaust(l: RateLimiter, cls: Parameters<RateLimiter['consume']>[0], key: string, n: number): Promise<RateDecision[]> {
  const out: RateDecision[] = [];
  for (let i = 0; i < n; i++) out.push(await l.consume(cls, key));
  return out;
}

// Structured Field List member "token-like string" with integer parameters (RFC 9651 subset).
const SF_ITEM = /^"[^"\\]*";([a-z]+=\d+)(;[a-z]+=\d+)*$/;

describe('headers (draft-ietf-httpapi-ratelimit-headers-11)', () => {
  const base: RateDecision = { allowed: true, limit: 600, remaining: 599, resetSeconds: 1, windowSeconds: 60, policyName: 'anonymous_read' };

  test('an allowed decision carries RateLimit-Policy and RateLimit, no Retry-After', () => {
    const h = rateLimitHeaders(base);
    expect(h).toEqual({ 'ratelimit-policy': '"anonymous_read";q=600;w=60', ratelimit: '"anonymous_read";r=599;t=1' });
    expect(h['ratelimit-policy']).toMatch(SF_ITEM);
    expect(h.ratelimit).toMatch(SF_ITEM);
  });

  test('a refused decision adds Retry-After equal to the effective window', () => {
    const h = rateLimitHeaders({ ...base, allowed: false, remaining: 0, resetSeconds: 7, policyName: 'write', limit: 120 });
    expect(h).toEqual({ 'ratelimit-policy': '"write";q=120;w=60', ratelimit: '"write";r=0;t=7', 'retry-after': '7' });
  });

  test('the 429 response is a problem with the headers and the violated policy', async () => {
    const res = rateLimitedResponse(new Request('https://dir.test/api/v1/site', { headers: { 'x-request-id': 'rl-1' } }), 'https://dir.test', {
      ...base,
      allowed: false,
      remaining: 0,
      resetSeconds: 3,
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('retry-after')).toBe('3');
    expect(res.headers.get('ratelimit')).toBe('"anonymous_read";r=0;t=3');
    const body = await res.json();
    expect(body).toMatchObject({ status: 429, type: 'https://dir.test/problems/rate-limited', 'violated-policies': ['anonymous_read'], instance: 'rl-1' });
    expect(res.headers.get('x-request-id')).toBe('rl-1');
  });
});

describe('client addresses and keys', () => {
  test('IPv6 addresses in one /64 share a key; another /64 does not', () => {
    const a = addressKey('2001:db8:1:2:aaaa::1');
    expect(a).toBe('ip:2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe(a);
    expect(addressKey('2001:db8:1:3::1')).not.toBe(a);
    expect(addressKey('fe80::1:2:3:4%eth0')).toBe('ip:fe80::/64');
  });

  test('IPv4 keys are the address; IPv4-mapped IPv6 counts as the IPv4 address', () => {
    expect(addressKey('203.0.113.7')).toBe('ip:203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('ip:203.0.113.7');
    expect(addressKey('203.0.113.8')).not.toBe(addressKey('203.0.113.7'));
  });

  test('the peer address is used unless a proxy is trusted; then the last X-Forwarded-For hop', () => {
    const req = new Request('http://x.test/', { headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.9' } });
    expect(clientAddress(req, { trustProxy: false, peer: '::ffff:192.0.2.5' })).toBe('192.0.2.5');
    expect(clientAddress(req, { trustProxy: true, peer: '192.0.2.5' })).toBe('203.0.113.9');
    const bad = new Request('http://x.test/', { headers: { 'x-forwarded-for': 'not-an-ip' } });
    expect(clientAddress(bad, { trustProxy: true, peer: '192.0.2.5' })).toBe('192.0.2.5');
    const ported = new Request('http://x.test/', { headers: { 'x-forwarded-for': '[2001:db8::1]:443' } });
    expect(clientAddress(ported, { trustProxy: true })).toBe('2001:db8::1');
    expect(clientAddress(new Request('http://x.test/'), { trustProxy: false })).toBe('unknown');
  });

  test('a peer address noted on the request by the server is found later', () => {
    const req = new Request('http://x.test/');
    notePeerAddress(req, '2001:db8::5');
    expect(clientAddress(req, { trustProxy: false })).toBe('2001:db8::5');
  });

  test('credentials count per person by class (all their keys and grants together); anonymous traffic per address', () => {
    expect(rateTarget({ userId: 'u1', address: '192.0.2.1', write: false })).toEqual({ cls: 'authenticated_read', key: 'user:u1' });
    expect(rateTarget({ userId: 'u1', address: '192.0.2.1', write: true })).toEqual({ cls: 'write', key: 'user:u1' });
    expect(rateTarget({ userId: null, address: '2001:db8:1:2::9', write: false })).toEqual({ cls: 'anonymous_read', key: 'ip:2001:db8:1:2::/64' });
  });
});

describe('in-process store', () => {
  test('counts down, refuses at the limit and recovers after the window', async () => {
    // The clock is moved, not waited for: fake timers move Date.now and fire the store's timers.
    jest.useFakeTimers();
    const l = createRateLimiter({ limits: limits(60, 3), redisUrl: null });
    try {
      expect(l.store).toBe('memory');
      const ds = await exhaust(l, 'anonymous_read', 'ip:192.0.2.1', 3);
      expect(ds.map((d) => [d.allowed, d.remaining, d.limit])).toEqual([
        [true, 2, 3],
        [true, 1, 3],
        [true, 0, 3],
      ]);
      const refused = await l.consume('anonymous_read', 'ip:192.0.2.1');
      expect(refused.allowed).toBe(false);
      expect(refused.remaining).toBe(0);
      expect(refused.resetSeconds).toBe(60);
      jest.advanceTimersByTime(30_000);
      const later = await l.consume('anonymous_read', 'ip:192.0.2.1');
      expect([later.allowed, later.resetSeconds]).toEqual([false, 30]);
      jest.advanceTimersByTime(30_001);
      const again = await exhaust(l, 'anonymous_read', 'ip:192.0.2.1', 3);
      expect(again.map((d) => d.allowed)).toEqual([true, true, true]);
    } finally {
      await l.close();
      jest.useRealTimers();
    }
  });

  test('classes and keys have separate budgets', async () => {
    const l = createRateLimiter({ limits: limits(3600, 2), redisUrl: null });
    try {
      await exhaust(l, 'anonymous_read', 'ip:192.0.2.1', 2);
      expect((await l.consume('anonymous_read', 'ip:192.0.2.1')).allowed).toBe(false);
      expect((await l.consume('anonymous_read', 'ip:192.0.2.2')).allowed).toBe(true);
      expect((await l.consume('authenticated_read', 'ip:192.0.2.1')).allowed).toBe(true);
      const w = await l.consume('write', 'cred:a');
      expect([w.allowed, w.limit, w.policyName]).toEqual([true, 4, 'write']);
    } finally {
      await l.close();
    }
  });

  test('200 parallel requests on a limit of 50 allow exactly 50', async () => {
    const l = createRateLimiter({ limits: limits(3600, 50), redisUrl: null });
    try {
      const ds = await Promise.all(Array.from({ length: 200 }, () => l.consume('anonymous_read', 'ip:192.0.2.1')));
      expect(ds.filter((d) => d.allowed).length).toBe(50);
    } finally {
      await l.close();
    }
  });

  test('memory stays bounded: the key count is capped, the key whose window began first forgotten first', async () => {
    const l = createRateLimiter({ limits: limits(3600, 1), redisUrl: null, maxKeys: 10 });
    try {
      for (let i = 0; i < 50; i++) expect((await l.consume('anonymous_read', `ip:k${i}`)).allowed).toBe(true);
      // The 40 oldest keys were forgotten (their budgets restart full); the 10 newest are held.
      expect((await l.consume('anonymous_read', 'ip:k0')).allowed).toBe(true);
      expect((await l.consume('anonymous_read', 'ip:k49')).allowed).toBe(false);
    } finally {
      await l.close();
    }
  });
});

describe('Redis store', () => {
  let redis: Awaited<ReturnType<typeof testRedis>>;
  let raw: Redis;
  beforeAll(async () => {
    redis = await testRedis();
    raw = new Redis(redis.url);
  });
  afterAll(async () => {
    await raw.quit();
    await redis.stop();
  });

  test('two instances sharing Redis see one budget', async () => {
    const prefix = uniquePrefix();
    const a = createRateLimiter({ limits: limits(3600, 6), redisUrl: redis.url, prefix });
    const b = createRateLimiter({ limits: limits(3600, 6), redisUrl: redis.url, prefix });
    try {
      const seen: RateDecision[] = [];
      for (let i = 0; i < 6; i++) seen.push(await (i % 2 ? b : a).consume('anonymous_read', 'ip:192.0.2.1'));
      expect(seen.map((d) => d.remaining)).toEqual([5, 4, 3, 2, 1, 0]);
      expect(seen.every((d) => d.allowed)).toBe(true);
      for (const l of [a, b]) {
        const refused = await l.consume('anonymous_read', 'ip:192.0.2.1');
        expect(refused.allowed).toBe(false);
        expect(refused.resetSeconds).toBeGreaterThan(0);
      }
      expect(a.store).toBe('redis');
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('keys expire once their budget would be full again', async () => {
    const prefix = uniquePrefix();
    const l = createRateLimiter({ limits: limits(60, 10), redisUrl: redis.url, prefix });
    try {
      await l.consume('write', 'cred:k');
      const ttl = await raw.pttl(`${prefix}:write:cred:k`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      await l.close();
    }
  });

  test('classes and keys have separate budgets', async () => {
    const l = createRateLimiter({ limits: limits(3600, 1), redisUrl: redis.url, prefix: uniquePrefix() });
    try {
      expect((await l.consume('anonymous_read', 'ip:192.0.2.1')).allowed).toBe(true);
      expect((await l.consume('anonymous_read', 'ip:192.0.2.1')).allowed).toBe(false);
      expect((await l.consume('anonymous_read', 'ip:192.0.2.2')).allowed).toBe(true);
      expect((await l.consume('authenticated_read', 'ip:192.0.2.1')).allowed).toBe(true);
      expect((await l.consume('write', 'ip:192.0.2.1')).allowed).toBe(true);
    } finally {
      await l.close();
    }
  });

  test('200 parallel requests across two instances on a limit of 50 allow exactly 50', async () => {
    const prefix = uniquePrefix();
    const a = createRateLimiter({ limits: limits(3600, 50), redisUrl: redis.url, prefix });
    const b = createRateLimiter({ limits: limits(3600, 50), redisUrl: redis.url, prefix });
    try {
      const ds = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).consume('anonymous_read', 'ip:192.0.2.1')));
      expect(ds.filter((d) => d.allowed).length).toBe(50);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('recovers after the window', async () => {
    const l = createRateLimiter({ limits: limits(1, 2), redisUrl: redis.url, prefix: uniquePrefix() });
    try {
      await exhaust(l, 'write', 'cred:k', 2);
      expect((await l.consume('write', 'cred:k')).allowed).toBe(true); // writes get n + 2 = 4
      expect((await l.consume('write', 'cred:k')).allowed).toBe(true);
      expect((await l.consume('write', 'cred:k')).allowed).toBe(false);
      // Redis keeps time itself: its key expires with the 1 s window, polled for rather than slept on.
      const later = await eventually(
        () => l.consume('write', 'cred:k'),
        (d) => d.allowed,
      );
      expect(later.allowed).toBe(true);
    } finally {
      await l.close();
    }
  });
});

describe('Redis unreachable', () => {
  test('a Redis that goes away mid-way: decisions continue from the in-process store', async () => {
    // A private server this test may stop, even when TEST_REDIS_URL names a shared one.
    const shared = process.env.TEST_REDIS_URL;
    delete process.env.TEST_REDIS_URL;
    const own = await testRedis().finally(() => {
      if (shared !== undefined) process.env.TEST_REDIS_URL = shared;
    });
    const warnings: string[] = [];
    const l = createRateLimiter({
      limits: limits(3600, 2),
      redisUrl: own.url,
      log: {
        warn: (_o, msg) => {
          warnings.push(msg);
        },
      },
    });
    try {
      expect((await l.consume('anonymous_read', 'ip:192.0.2.1')).allowed).toBe(true);
      expect(l.store).toBe('redis');
      await own.stop();
      const ds = await exhaust(l, 'anonymous_read', 'ip:192.0.2.1', 3);
      expect(ds.map((d) => d.allowed)).toEqual([true, true, false]); // a fresh per-instance budget
      expect(l.store).toBe('memory');
      expect(warnings.length).toBeGreaterThan(0);
    } finally {
      await l.close();
    }
  });

  test('falls back to in-process budgets and logs a warning', async () => {
    const warnings: string[] = [];
    const port = await freePort(); // nothing listens there
    const l = createRateLimiter({
      limits: limits(3600, 2),
      redisUrl: `redis://127.0.0.1:${port}`,
      prefix: uniquePrefix(),
      log: {
        warn: (_obj, msg) => {
          warnings.push(msg);
        },
      },
    });
    try {
      const ds = await exhaust(l, 'anonymous_read', 'ip:192.0.2.1', 3);
      expect(ds.map((d) => d.allowed)).toEqual([true, true, false]);
      expect(l.store).toBe('memory');
      expect(warnings.length).toBeGreaterThan(0);
    } finally {
      await l.close();
    }
  });
});
