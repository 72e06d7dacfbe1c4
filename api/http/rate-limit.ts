import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../../core/config.ts';
import { problem, problemResponse } from './problem.ts';
import { RedisGuard, type RedisGuardOptions } from './redis-guard.ts';

/**
 * Rate limits.
 *
 * Who is counted: a request with a valid credential counts against the person it belongs to
 * (`user:<id>`), as an authenticated read or a write, whichever of their API keys or OAuth grants
 * it uses: minting more keys or grants does not multiply the budget; anything else (no credential,
 * or one that failed to authenticate) is anonymous traffic and counts against the client address
 * (`ip:<addr>`, IPv6 grouped by /64 because one host usually owns a whole /64). Authenticated
 * requests do NOT also count against their address: agents of many users often share egress
 * addresses (NAT, hosted agent platforms), and a credential is already accountable and revocable.
 *
 * Counting is rate-limiter-flexible's: `limit` requests per window of `windowSeconds` per key, a
 * window starting at a key's first request. RateLimiterRedis (one Lua script per decision, atomic
 * and shared by every instance, keys expiring with their window) when a URL is given, with a
 * RateLimiterMemory as its insurance; otherwise the RateLimiterMemory alone. Around it sits the
 * edge's Redis guard (time cap of every command, a breaker after a failure, one warning): when
 * Redis fails or is slower than REDIS_COMMAND_TIMEOUT_MS the insurance decides and the breaker keeps
 * decisions in process for REDIS_BREAKER_SECONDS, so limits then hold per instance rather than
 * vanishing, and no request fails or waits on a hung Redis more than once per breaker period.
 *
 * It replaced a hand-written GCRA at no measurable cost: 0.6-0.9 us a decision in process either way
 * (docs/performance.md). A window rather than GCRA's smooth refill means a client can spend a
 * budget at the end of one window and again at the start of the next; budgets here guard against
 * abuse, so the simpler, shared library wins.
 *
 * Time: the in-process counters follow the runtime's clock (Date.now and timers), which tests move
 * with fake timers; Redis keys expire on Redis' own clock.
 */
export type RateClass = 'anonymous_read' | 'authenticated_read' | 'write';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests still allowed now (0 when refused). */
  remaining: number;
  /** Seconds until the key's window ends: its budget is full again, and a refused request may pass. */
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
  /**
   * Largest number of keys held in process (default 100,000). Past it the key whose window began
   * first is forgotten (its budget restarts full): memory stays bounded under a flood of distinct
   * addresses, at the cost of leniency toward the oldest.
   */
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

const CLASSES: RateClass[] = ['anonymous_read', 'authenticated_read', 'write'];

/**
 * The in-process limiter, also Redis' insurance. As insurance it tells the guard that Redis just
 * failed (the library swallows the error to call it), so the breaker opens and the next requests
 * skip Redis instead of each waiting for its time cap.
 */
class InsuranceLimiter extends RateLimiterMemory {
  onInsured: () => void = () => {};
  override consume(key: string | number, points?: number, options?: { [key: string]: unknown }): Promise<RateLimiterRes> {
    this.onInsured();
    return this.direct(key, points, options);
  }
  /** A decision asked for directly (no Redis configured, or the breaker open). */
  direct(key: string | number, points?: number, options?: { [key: string]: unknown }): Promise<RateLimiterRes> {
    return super.consume(key, points, options);
  }
}

export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  const { windowSeconds } = opts.limits;
  const guard = opts.redisUrl
    ? new RedisGuard(opts.redisUrl, {
        connectTimeoutMs: 2000,
        commandTimeoutMs: 1000,
        breakerMs: 5000,
        ...opts.redis,
        name: 'rate limiter',
        log: opts.log ?? consoleLog,
      })
    : null;
  const memory = new Map<RateClass, InsuranceLimiter>();
  const redis = new Map<RateClass, RateLimiterRedis>();
  // rate-limiter-flexible's memory store drops a key when its window ends but holds any number of
  // keys until then; this bounds their count (a 60 s window of rotating IPv6 /64s would not be).
  // A key is noted when its window begins, not at every decision: noting each one (a string and an
  // LRU update per request) was a third of a decision's cost, and the key whose window began first
  // is as fair a one to forget as the least recently used.
  const held = new LRUCache<string, { cls: RateClass; key: string | number }>({
    max: opts.maxKeys ?? 100_000,
    dispose: (v, _k, reason) => {
      if (reason === 'evict') void memory.get(v.cls)!.delete(v.key);
    },
  });
  for (const cls of CLASSES) {
    const points = limitOf(opts.limits, cls);
    const insurance = new InsuranceLimiter({ points, duration: windowSeconds, keyPrefix: cls });
    memory.set(cls, insurance);
    if (!guard) continue;
    insurance.onInsured = () => guard.noteFailure(new Error('a rate-limit command failed or timed out'));
    redis.set(
      cls,
      new RateLimiterRedis({
        storeClient: guard.client,
        points,
        duration: windowSeconds,
        keyPrefix: `${opts.prefix ?? 'dir:rl'}:${cls}`,
        insuranceLimiter: insurance,
      }),
    );
  }
  return {
    get store() {
      return guard?.available() && guard.client.status === 'ready' ? 'redis' : 'memory';
    },
    async consume(cls, key) {
      const limit = limitOf(opts.limits, cls);
      const shared = guard?.available() ? redis.get(cls) : undefined;
      let res: RateLimiterRes;
      try {
        res = await (shared ? shared.consume(key) : memory.get(cls)!.direct(key));
      } catch (refused) {
        // The library rejects with the decision when the budget is spent; anything else is a bug.
        if (!(refused instanceof RateLimiterRes)) throw refused;
        res = refused;
      }
      if (res.isFirstInDuration) held.set(`${cls}:${key}`, { cls, key });
      const allowed = res.consumedPoints <= limit;
      return {
        allowed,
        limit,
        remaining: allowed ? res.remainingPoints : 0,
        resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
        windowSeconds,
        policyName: cls,
      };
    },
    async close() {
      held.clear();
      await guard?.close();
    },
  };
}

function limitOf(l: Config['rateLimits'], cls: RateClass): number {
  return cls === 'anonymous_read' ? l.anonymousReads : cls === 'authenticated_read' ? l.authenticatedReads : l.writes;
}

const consoleLog = { warn: (obj: object, msg: string) => console.warn(msg, obj) };

// ---------------------------------------------------------------------------------------------
// Headers, per draft-ietf-httpapi-ratelimit-headers-11 (May 2026), sections 3 and 4: both fields
// are Structured Field Lists of String items with parameters. Policy names are our own constants,
// so a one-line String serialization suffices instead of a structured-fields library.

const sfString = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
const POLICY_NAMES: Record<RateClass, string> = {
  anonymous_read: sfString('anonymous_read'),
  authenticated_read: sfString('authenticated_read'),
  write: sfString('write'),
};

/** `RateLimit-Policy` of a decision: the same for every decision of a class, so built once per class. */
const policies = new Map<RateClass, { limit: number; windowSeconds: number; header: string }>();
export function rateLimitPolicy(d: RateDecision): string {
  let p = policies.get(d.policyName);
  if (p === undefined || p.limit !== d.limit || p.windowSeconds !== d.windowSeconds) {
    p = { limit: d.limit, windowSeconds: d.windowSeconds, header: `${POLICY_NAMES[d.policyName]};q=${d.limit};w=${d.windowSeconds}` };
    policies.set(d.policyName, p);
  }
  return p.header;
}

/** `RateLimit-Policy` and `RateLimit` for every response; `Retry-After` as well when refused (a 429). */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  const h: Record<string, string> = {
    'ratelimit-policy': rateLimitPolicy(d),
    ratelimit: `${POLICY_NAMES[d.policyName]};r=${d.remaining};t=${d.resetSeconds}`,
  };
  // The draft (section 6): Retry-After should not be earlier than the end of the effective window.
  if (!d.allowed) h['retry-after'] = String(d.resetSeconds);
  return h;
}

/** The 429 problem for a refused decision, with the rate-limit headers and Retry-After. */
export function rateLimitedResponse(request: Request, siteUrl: string, d: RateDecision): Response {
  const p = problem(siteUrl, 'rate-limited', `Rate limit reached; retry in ${d.resetSeconds} s.`, { 'violated-policies': [d.policyName] });
  return problemResponse(request, p, rateLimitHeaders(d));
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
