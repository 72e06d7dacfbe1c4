import type Redis from 'ioredis';
import ipaddr from 'ipaddr.js';
import type { Config } from '../../core/config.ts';
import { problem, problemResponse } from './problem.ts';
import { RedisGuard, type RedisGuardOptions } from './redis-guard.ts';

/**
 * Rate limits.
 *
 * Who is counted: a request with a valid credential counts against the person it belongs to
 * (`user:<id>`), as an authenticated read or a write, whichever of their API keys or OAuth grants
 * it uses: minting more keys or grants does not multiply the budget; anything else (no credential, or one that
 * failed to authenticate) is anonymous traffic and counts against the client address (`ip:<addr>`,
 * IPv6 grouped by /64 because one host usually owns a whole /64). Authenticated requests do NOT
 * also count against their address: agents of many users often share egress addresses (NAT,
 * hosted agent platforms), and a credential is already accountable and revocable.
 *
 * Algorithm: GCRA (the generic cell rate algorithm, a token bucket kept as one timestamp per key).
 * `limit` requests per `windowSeconds`, the full limit usable as a burst, one request's worth
 * coming back every window/limit; no fixed-window edge where twice the limit gets through. It is
 * hand-written because it is a few lines of arithmetic and the installed libraries (express-rate-
 * limit) are Express middleware without a shared atomic store or these headers.
 *
 * Stores: Redis when a URL is given (one Lua script per decision, so atomic and shared by every
 * instance, clocked by Redis' TIME so instances' clocks do not matter; keys expire when their
 * budget is full again); otherwise an in-process Map swept of full budgets and capped in size.
 * When Redis fails, is unreachable or slower than REDIS_COMMAND_TIMEOUT_MS, decisions come from this
 * instance's in-process store (a warning is logged, at most every 30 s) and a breaker keeps them
 * there for REDIS_BREAKER_SECONDS before Redis is tried again: limits then hold per instance rather
 * than vanishing, and no request fails or waits because of the limiter.
 */
export type RateClass = 'anonymous_read' | 'authenticated_read' | 'write';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests still allowed now (0 when refused). */
  remaining: number;
  /** Allowed: seconds until the budget is full again. Refused: seconds until the next request may pass. */
  resetSeconds: number;
  windowSeconds: number;
  /** The policy name in the RateLimit headers: the class. */
  policyName: RateClass;
}

export interface RateLimiter {
  consume(cls: RateClass, key: string): Promise<RateDecision>;
  /** Which store answers (memory also while a configured Redis is down). */
  readonly store: 'redis' | 'memory';
  close(): Promise<void>;
}

export interface RateLimiterOptions {
  limits: Config['rateLimits'];
  redisUrl: string | null;
  /** Key prefix in Redis; tests use their own. */
  prefix?: string;
  /** Largest number of keys the in-process store holds. */
  maxKeys?: number;
  log?: { warn(obj: object, msg: string): void };
  /** Time caps and breaker of the Redis connection (defaults: config's defaults). */
  redis?: Omit<RedisGuardOptions, 'name' | 'log'>;
}

/** Which budget a request uses. `credentialId` is the authenticated credential (API key, OAuth grant), null when none is valid. */
export function rateTarget(who: { userId: string | null; address: string; write: boolean }): { cls: RateClass; key: string } {
  if (who.userId === null) return { cls: 'anonymous_read', key: addressKey(who.address) };
  return { cls: who.write ? 'write' : 'authenticated_read', key: `user:${who.userId}` };
}

export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  const memory = new MemoryRateStore(opts.maxKeys ?? 100_000, opts.limits.windowSeconds * 1000);
  const redis = opts.redisUrl ? new RedisRateStore(opts.redisUrl, opts.prefix ?? 'dir:rl', memory, opts.log ?? consoleLog, opts.redis) : null;
  const windowMs = opts.limits.windowSeconds * 1000;
  return {
    get store() {
      return redis && !redis.down() ? 'redis' : 'memory';
    },
    async consume(cls, key) {
      const limit = limitOf(opts.limits, cls);
      const fullKey = `${cls}:${key}`;
      const o = redis ? await redis.take(fullKey, limit, windowMs) : memory.take(fullKey, limit, windowMs);
      return {
        allowed: o.allowed,
        limit,
        remaining: o.remaining,
        resetSeconds: Math.max(1, Math.ceil(o.resetMs / 1000)),
        windowSeconds: opts.limits.windowSeconds,
        policyName: cls,
      };
    },
    async close() {
      memory.close();
      await redis?.close();
    },
  };
}

function limitOf(l: Config['rateLimits'], cls: RateClass): number {
  return cls === 'anonymous_read' ? l.anonymousReads : cls === 'authenticated_read' ? l.authenticatedReads : l.writes;
}

const consoleLog = { warn: (obj: object, msg: string) => console.warn(msg, obj) };

// ---------------------------------------------------------------------------------------------
// GCRA. State per key: the theoretical arrival time (TAT). A request is allowed when TAT, pushed
// one interval on, is at most one window ahead of now. The same arithmetic is in the Lua below.

interface Outcome {
  allowed: boolean;
  remaining: number;
  resetMs: number;
}

/** Float sums of window/limit may land a hair past a boundary; this much slack (in ms) absorbs it. */
const SLACK_MS = 1e-3;

function gcra(stored: number | undefined, now: number, limit: number, windowMs: number): Outcome & { tat: number } {
  const interval = windowMs / limit;
  const tat = Math.max(stored ?? now, now);
  const next = tat + interval;
  const allowAt = next - windowMs;
  if (allowAt - now > SLACK_MS) return { allowed: false, remaining: 0, resetMs: allowAt - now, tat };
  const remaining = Math.max(0, Math.floor((windowMs - (next - now)) / interval + 1e-6));
  return { allowed: true, remaining, resetMs: next - now, tat: next };
}

/** In-process budgets. A key whose TAT has passed holds a full budget, the same as no key, so sweeping it loses nothing. */
export class MemoryRateStore {
  private tats = new Map<string, number>();
  private timer: ReturnType<typeof setInterval>;

  constructor(
    private maxKeys: number,
    sweepEveryMs: number,
  ) {
    this.timer = setInterval(() => this.sweep(), Math.max(1000, sweepEveryMs));
    (this.timer as { unref?: () => void }).unref?.();
  }

  get size(): number {
    return this.tats.size;
  }

  take(key: string, limit: number, windowMs: number): Outcome {
    const now = performance.now(); // monotonic: clock adjustments do not refill or drain budgets
    const r = gcra(this.tats.get(key), now, limit, windowMs);
    if (!r.allowed) return r;
    if (!this.tats.has(key) && this.tats.size >= this.maxKeys) {
      this.sweep(now);
      // Still full under a flood of distinct keys: drop the oldest key (its budget restarts full),
      // which keeps memory bounded at the cost of leniency toward that key.
      if (this.tats.size >= this.maxKeys) this.tats.delete(this.tats.keys().next().value!);
    }
    this.tats.delete(key); // re-insert so Map order stays roughly by last use, oldest first
    this.tats.set(key, r.tat);
    return r;
  }

  sweep(now = performance.now()): void {
    for (const [k, tat] of this.tats) if (tat <= now) this.tats.delete(k);
  }

  close(): void {
    clearInterval(this.timer);
    this.tats.clear();
  }
}

// Time in microseconds from Redis' own clock (integers up to ~1.8e15 are exact in Lua doubles).
// Returns {allowed 0|1, remaining, reset in ms}. The key expires when its budget is full again.
const GCRA_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local interval = window / limit
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local nxt = tat + interval
local allow_at = nxt - window
if allow_at - now > 1 then
  return {0, 0, math.ceil((allow_at - now) / 1000)}
end
redis.call('SET', KEYS[1], string.format('%.3f', nxt), 'PX', math.max(1, math.ceil((nxt - now) / 1000)))
local remaining = math.floor((window - (nxt - now)) / interval + 0.000001)
if remaining < 0 then remaining = 0 end
return {1, remaining, math.ceil((nxt - now) / 1000)}
`;

type GcraCommand = (key: string, limit: number, windowUs: number) => Promise<[number, number, number]>;

class RedisRateStore {
  private guard: RedisGuard;
  private run: (r: Redis, key: string, limit: number, windowUs: number) => Promise<[number, number, number]>;

  constructor(
    url: string,
    private prefix: string,
    private fallback: MemoryRateStore,
    log: NonNullable<RateLimiterOptions['log']>,
    timing: RateLimiterOptions['redis'] = { connectTimeoutMs: 2000, commandTimeoutMs: 1000, breakerMs: 5000 },
  ) {
    this.guard = new RedisGuard(url, { ...timing, name: 'rate limiter', log });
    this.guard.client.defineCommand('rateLimitGcra', { numberOfKeys: 1, lua: GCRA_LUA });
    this.run = (r, key, limit, windowUs) => (r as unknown as { rateLimitGcra: GcraCommand }).rateLimitGcra(key, limit, windowUs);
  }

  down(): boolean {
    return !this.guard.available() || this.guard.client.status !== 'ready';
  }

  take(key: string, limit: number, windowMs: number): Promise<Outcome> {
    return this.guard.run(
      async (r) => {
        const [allowed, remaining, resetMs] = await this.run(r, `${this.prefix}:${key}`, limit, windowMs * 1000);
        return { allowed: allowed === 1, remaining, resetMs };
      },
      () => this.fallback.take(key, limit, windowMs),
    );
  }

  close() {
    return this.guard.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Headers, per draft-ietf-httpapi-ratelimit-headers-11 (May 2026), sections 3 and 4: both fields
// are Structured Field Lists of String items with parameters. Policy names are our own constants,
// so a one-line String serialization suffices instead of a structured-fields library.

const sfString = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** `RateLimit-Policy` and `RateLimit` for every response; `Retry-After` as well when refused (a 429). */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  const h: Record<string, string> = {
    'ratelimit-policy': `${sfString(d.policyName)};q=${d.limit};w=${d.windowSeconds}`,
    ratelimit: `${sfString(d.policyName)};r=${d.remaining};t=${d.resetSeconds}`,
  };
  // The draft (section 6): Retry-After should not be earlier than the end of the effective window.
  if (!d.allowed) h['retry-after'] = String(d.resetSeconds);
  return h;
}

/** The 429 problem for a refused decision, with the rate-limit headers and Retry-After. */
export function rateLimitedResponse(siteUrl: string, d: RateDecision): Response {
  const p = problem(siteUrl, 'rate-limited', `Rate limit reached; retry in ${d.resetSeconds} s.`, { 'violated-policies': [d.policyName] });
  return problemResponse(p, rateLimitHeaders(d));
}

// ---------------------------------------------------------------------------------------------
// Client addresses.

// The server's fetch handler sees the peer address (Bun: server.requestIP(req), Deno: info.remoteAddr)
// but Elysia's app.handle(req) does not; this carries it on the Request without changing signatures.
const peers = new WeakMap<Request, string>();
export function notePeerAddress(request: Request, address: string | null | undefined): void {
  if (address) peers.set(request, address);
}

/** A request rebuilt from another (e.g. with its body buffered) keeps the peer address noted on it. */
export function carryPeerAddress(from: Request, to: Request): Request {
  notePeerAddress(to, peers.get(from));
  return to;
}

/**
 * The client's address, normalized (IPv4-mapped IPv6 becomes IPv4, zone dropped). With trustProxy,
 * the LAST X-Forwarded-For entry: the one our own proxy appended; earlier entries are whatever the
 * client sent and are not trusted. Falls back to the peer address, then to "unknown" (one shared bucket).
 */
export function clientAddress(request: Request, opts: { trustProxy: boolean; peer?: string | null }): string {
  if (opts.trustProxy) {
    const hops = (request.headers.get('x-forwarded-for') ?? '').split(',');
    const last = normalizeAddress(hops[hops.length - 1] ?? '');
    if (last) return last;
  }
  return normalizeAddress(opts.peer ?? peers.get(request) ?? '') ?? 'unknown';
}

// A busy edge sees the same few peer addresses again and again; parsing one costs more than the
// budget check itself, so answers are remembered (bounded: cleared when full).
const normalized = new Map<string, string | null>();

function normalizeAddress(raw: string): string | null {
  let out = normalized.get(raw);
  if (out === undefined) {
    if (normalized.size >= 10_000) normalized.clear();
    normalized.set(raw, (out = parseAddress(raw)));
  }
  return out;
}

function parseAddress(raw: string): string | null {
  let s = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s); // [v6] or [v6]:port
  if (bracketed) s = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(s)) s = s.slice(0, s.lastIndexOf(':')); // v4:port
  s = s.replace(/%.*$/, ''); // zone id
  if (!ipaddr.isValid(s)) return null;
  return ipaddr.process(s).toString();
}

/** The rate-limit key of an address: `ip:<IPv4>` or `ip:<IPv6 /64 prefix>/64` (remembered as above). */
const addressKeys = new Map<string, string>();

export function addressKey(address: string): string {
  let key = addressKeys.get(address);
  if (key === undefined) {
    if (addressKeys.size >= 10_000) addressKeys.clear();
    addressKeys.set(address, (key = computeAddressKey(address)));
  }
  return key;
}

function computeAddressKey(address: string): string {
  const norm = normalizeAddress(address);
  if (!norm) return `ip:${address}`;
  const ip = ipaddr.parse(norm);
  if (ip.kind() === 'ipv4') return `ip:${norm}`;
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4).concat([0, 0, 0, 0]);
  return `ip:${new ipaddr.IPv6(parts).toString()}/64`;
}
