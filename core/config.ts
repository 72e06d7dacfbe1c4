// Configuration is read once, at start, from the environment given; nothing reads env on import.
import { availableParallelism } from 'node:os';
import { defaultSharedBuffersMb } from '../sql/embedded.ts';
import { PRODUCT_NAME, PRODUCT_TOKEN } from '../sql/product.ts';
export interface Config {
  port: number;
  host: string;
  siteUrl: string;
  siteKey: string;
  databaseUrl: string | null;
  dataDir: string;
  embeddedPgPort: number;
  /** shared_buffers of the embedded PostgreSQL, MB. */
  embeddedPgSharedBuffersMb: number;
  redisUrl: string | null;
  /** Time caps and circuit breaker of every Redis use (cache, rate limits); each falls back to in-process. */
  redis: { connectTimeoutMs: number; commandTimeoutMs: number; breakerMs: number };
  /** Time caps of every PostgreSQL use, and how long the edge answers 503 before trying a dead database again. */
  db: {
    connectTimeoutMs: number;
    statementTimeoutMs: number;
    poolWaitMs: number;
    retryAfterSeconds: number;
    workerStatementTimeoutMs: number;
    /** work_mem of the edge's connections, MB. */
    workMemMb: number;
    /** max_parallel_workers_per_gather of the edge's connections (0: every statement on one core). */
    parallelWorkers: number;
    /** Connections in each of the edge's two pools (public reads; everything else). */
    poolSize: number;
  };
  /** Seconds after which a still-locked crawl or draft job is taken to belong to a dead worker and retried. */
  jobRecoverySeconds: number;
  /** npm start: a crash loop (this many crashes of the edge, worker or database within the window) stops everything. */
  supervise: { maxCrashes: number; windowMs: number };
  cacheTtlSeconds: number;
  /** The in-process response cache's budget, MB of bodies (Redis, when set, holds the shared copy). */
  cacheMaxMb: number;
  httpCacheMaxAge: number;
  maxBodyBytes: number;
  seedOnEmpty: boolean;
  viewRefreshCron: string;
  logLevel: string;
  /** The worker's probe and metrics port (/healthz, /readyz, /metrics); null: not served. */
  workerHealthPort: number | null;
  /** Bearer token the edge's /metrics asks for; null: /metrics is open (keep it off the public balancer). */
  metricsToken: string | null;
  /** On SIGTERM the edge stops accepting and waits this long for requests in flight before cutting them. */
  drainSeconds: number;
  /** Trust the first X-Forwarded-For hop as the client address (behind our own proxy only). */
  trustProxy: boolean;
  /** Browser origins besides SITE_URL's that may call /mcp (exact scheme://host[:port]); empty: same origin only. */
  mcpAllowedOrigins: string[];
  mail: { smtpUrl: string | null; from: string };
  auth: {
    sessionTtlHours: number;
    loginLinkTtlMinutes: number;
    accessTokenTtlSeconds: number;
    refreshTokenTtlDays: number;
    authCodeTtlSeconds: number;
    /** Dynamic client registrations one address may make an hour. */
    registrationsPerHour: number;
  };
  rateLimits: {
    windowSeconds: number;
    anonymousReads: number;
    authenticatedReads: number;
    writes: number;
  };
  idempotencyTtlHours: number;
  /** Server-side fetches (crawls, client metadata documents) may reach loopback: tests only. */
  allowLoopbackFetch: boolean;
  crawlerUserAgent: string;
  /** Render pages whose HTML is a JavaScript shell in headless Chromium (CRAWL_RENDER_JS). */
  crawlRenderJs: boolean;
  /** A Chromium binary for rendering (CHROMIUM_PATH); else the system one or @sparticuz/chromium's. */
  chromiumPath: string | null;
  /** DNS server for claim TXT lookups (host or host:port); null: the system's resolvers. */
  claimDnsServer: string | null;
  drafter: { kind: 'extractive' | 'llm'; openaiApiKey: string | null; openaiBaseUrl: string | null; model: string; timeoutMs: number };
  orders: {
    /** The seller's country (ISO 3166-1 alpha-2): decides domestic VAT and whether EU rules apply. */
    sellerCountry: string;
    /** How long a pending order's checkout stays open before it expires. */
    checkoutTtlMinutes: number;
    /** Stripe when a secret key is set; the built-in test provider otherwise. */
    stripe: { secretKey: string; webhookSecret: string | null; apiUrl: string | null } | null;
    /** Check EU VAT numbers online against VIES as well as by checksum (off by default). */
    vies: { url: string } | null;
  };
  /** The Domain Rating provider (Ahrefs API v3 or one speaking its JSON); null: ratings come from `ops dr import` only. */
  domainRating: { url: string; key: string; concurrency: number } | null;
  /**
   * The 32-byte key that encrypts makers' restricted Stripe keys at rest (AES-256-GCM); null: makers
   * can report revenue themselves but cannot connect Stripe. Stripe's API base for those keys.
   */
  revenue: { keysSecret: Buffer | null; stripeApiUrl: string };
}

type Env = Record<string, string | undefined>;

/**
 * Connections per edge pool when DB_POOL_SIZE is not set: twice this machine's cores, 4 to 16 (the
 * PostgreSQL wiki's rule of thumb is cores x 2 plus disks, for the database's cores). Each
 * connection is a server process: past the cores that run them, more only queue and switch, and
 * postgres.js pipelines a busy pool's queries instead. Measured with the database on the same 2
 * cores (npm start's embedded one): 4 connections served 27% more long-tail reads than 16. Set it
 * to the database server's own figure when that runs elsewhere.
 */
export function defaultPoolSize(cores = availableParallelism()): number {
  return Math.min(16, Math.max(4, 2 * cores));
}

function int(env: Env, key: string, fallback: number, min: number, max: number): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${key} must be an integer between ${min} and ${max}, got "${raw}"`);
  return n;
}

function bool(env: Env, key: string, fallback: boolean): boolean {
  const raw = env[key]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new Error(`${key} must be true or false, got "${env[key]}"`);
}

function oneOf<T extends string>(env: Env, key: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  if (!allowed.includes(raw as T)) throw new Error(`${key} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

function country(env: Env, key: string, fallback: string): string {
  const raw = (env[key] || fallback).toUpperCase();
  if (!/^[A-Z]{2}$/.test(raw)) throw new Error(`${key} must be a two-letter country code, got "${env[key]}"`);
  return raw;
}

/** A comma-separated list of exact origins (scheme://host[:port], no path), each as the URL standard spells it. */
function origins(env: Env, key: string): string[] {
  const raw = (env[key] ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  return raw.map((o) => {
    let u: URL | null = null;
    try {
      u = new URL(o);
    } catch {
      u = null;
    }
    const exact = /^https?:\/\/[^/?#@]+\/?$/i.test(o);
    if (!u || !exact || !/^https?:$/.test(u.protocol))
      throw new Error(`${key} must list origins like https://app.example.com (scheme, host and optional port; no path), got "${o}"`);
    return u.origin;
  });
}

export function loadConfig(env: Env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const siteUrl = (env.SITE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(siteUrl);
  } catch {
    throw new Error(`SITE_URL must be an absolute URL, got "${siteUrl}"`);
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    siteUrl,
    siteKey: env.SITE_KEY || 'main',
    databaseUrl: env.DATABASE_URL || null,
    dataDir: env.DATA_DIR || '.data',
    embeddedPgPort: int(env, 'EMBEDDED_PG_PORT', 54329, 1, 65535),
    embeddedPgSharedBuffersMb: int(env, 'EMBEDDED_PG_SHARED_BUFFERS_MB', defaultSharedBuffersMb(), 16, 1_048_576),
    redisUrl: env.REDIS_URL || null,
    redis: {
      connectTimeoutMs: int(env, 'REDIS_CONNECT_TIMEOUT_MS', 1000, 50, 60_000),
      commandTimeoutMs: int(env, 'REDIS_COMMAND_TIMEOUT_MS', 250, 10, 60_000),
      breakerMs: int(env, 'REDIS_BREAKER_SECONDS', 5, 1, 3600) * 1000,
    },
    db: {
      connectTimeoutMs: int(env, 'DB_CONNECT_TIMEOUT_MS', 2000, 100, 60_000),
      statementTimeoutMs: int(env, 'DB_STATEMENT_TIMEOUT_MS', 15_000, 0, 3_600_000),
      // PostgreSQL's 4 MB default turns a broad search's bitmap lossy at a million listings: every
      // row of a lossy page is rechecked against the query (460 ms to 374 ms with 16 MB for a word
      // matching 77k listings). The edge holds two pools of DB_POOL_SIZE: at most 16 + 16 connections by
      // default, 512 MB at the very worst.
      workMemMb: int(env, 'DB_WORK_MEM_MB', 16, 1, 2048),
      // A request's statement runs on one core: parallel workers are processes the server starts per
      // statement, and under load they only contend with the other requests for the same cores. On
      // a 2-core machine a walk that PostgreSQL planned in parallel took 330 ms where the serial
      // plan took 2.7 (sort=most_followed at 100k listings).
      parallelWorkers: int(env, 'DB_PARALLEL_WORKERS', 0, 0, 64),
      poolSize: int(env, 'DB_POOL_SIZE', defaultPoolSize(), 1, 200),
      poolWaitMs: int(env, 'DB_POOL_WAIT_MS', 2000, 100, 60_000),
      retryAfterSeconds: int(env, 'DB_RETRY_AFTER_SECONDS', 2, 1, 300),
      workerStatementTimeoutMs: int(env, 'WORKER_STATEMENT_TIMEOUT_MS', 300_000, 0, 86_400_000),
    },
    jobRecoverySeconds: int(env, 'JOB_RECOVERY_SECONDS', 90, 35, 86_400),
    supervise: {
      maxCrashes: int(env, 'SUPERVISE_MAX_CRASHES', 5, 1, 1000),
      windowMs: int(env, 'SUPERVISE_WINDOW_SECONDS', 60, 1, 86_400) * 1000,
    },
    cacheTtlSeconds: int(env, 'CACHE_TTL_SECONDS', 10, 0, 3600),
    cacheMaxMb: int(env, 'CACHE_MAX_MB', 32, 1, 4096),
    httpCacheMaxAge: int(env, 'HTTP_CACHE_MAX_AGE', 30, 0, 86400),
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 1_048_576, 1024, 100_000_000),
    seedOnEmpty: bool(env, 'SEED_ON_EMPTY', true),
    viewRefreshCron: env.VIEW_REFRESH_CRON || '* * * * *',
    logLevel: env.LOG_LEVEL || 'info',
    workerHealthPort: env.WORKER_HEALTH_PORT ? int(env, 'WORKER_HEALTH_PORT', 0, 0, 65535) : null,
    metricsToken: env.METRICS_TOKEN || null,
    drainSeconds: int(env, 'EDGE_DRAIN_SECONDS', 25, 0, 3600),
    trustProxy: bool(env, 'TRUST_PROXY', false),
    mcpAllowedOrigins: origins(env, 'MCP_ALLOWED_ORIGINS'),
    mail: { smtpUrl: env.SMTP_URL || null, from: env.MAIL_FROM || `${PRODUCT_NAME} <no-reply@${new URL(siteUrl).hostname}>` },
    auth: {
      sessionTtlHours: int(env, 'SESSION_TTL_HOURS', 720, 1, 8760),
      loginLinkTtlMinutes: int(env, 'LOGIN_LINK_TTL_MINUTES', 15, 1, 1440),
      accessTokenTtlSeconds: int(env, 'OAUTH_ACCESS_TOKEN_TTL_SECONDS', 3600, 60, 86400),
      refreshTokenTtlDays: int(env, 'OAUTH_REFRESH_TOKEN_TTL_DAYS', 30, 1, 365),
      authCodeTtlSeconds: int(env, 'OAUTH_CODE_TTL_SECONDS', 60, 10, 600),
      registrationsPerHour: int(env, 'OAUTH_REGISTRATIONS_PER_HOUR', 20, 1, 1_000_000),
    },
    rateLimits: {
      windowSeconds: int(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 3600),
      anonymousReads: int(env, 'RATE_LIMIT_ANONYMOUS_READS', 600, 1, 10_000_000),
      authenticatedReads: int(env, 'RATE_LIMIT_AUTHENTICATED_READS', 1200, 1, 10_000_000),
      writes: int(env, 'RATE_LIMIT_WRITES', 120, 1, 10_000_000),
    },
    idempotencyTtlHours: int(env, 'IDEMPOTENCY_TTL_HOURS', 48, 24, 8760),
    allowLoopbackFetch: bool(env, 'ALLOW_LOOPBACK_FETCH', false),
    claimDnsServer: env.CLAIM_DNS_SERVER || null,
    crawlerUserAgent: env.CRAWLER_USER_AGENT || `${PRODUCT_TOKEN}Bot/1.0 (+${siteUrl}/bot)`,
    crawlRenderJs: bool(env, 'CRAWL_RENDER_JS', true),
    chromiumPath: env.CHROMIUM_PATH || null,
    drafter: {
      kind: oneOf(env, 'DRAFTER', env.OPENAI_API_KEY ? 'llm' : 'extractive', ['extractive', 'llm'] as const),
      openaiApiKey: env.OPENAI_API_KEY || null,
      openaiBaseUrl: env.OPENAI_BASE_URL || null,
      model: env.OPENAI_MODEL || 'gpt-4.1-mini',
      timeoutMs: int(env, 'OPENAI_TIMEOUT_MS', 60_000, 1000, 600_000),
    },
    orders: {
      sellerCountry: country(env, 'SELLER_COUNTRY', 'DE'),
      // Stripe Checkout Sessions live 30 minutes to 24 hours; ours match.
      checkoutTtlMinutes: int(env, 'CHECKOUT_TTL_MINUTES', 1440, 30, 1440),
      stripe: env.STRIPE_SECRET_KEY
        ? { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET || null, apiUrl: env.STRIPE_API_URL || null }
        : null,
      vies: bool(env, 'VIES_CHECK', false) ? { url: env.VIES_URL || 'https://ec.europa.eu/taxation_customs/vies/rest-api' } : null,
    },
    domainRating: env.DR_PROVIDER_KEY
      ? {
          url: env.DR_PROVIDER_URL || 'https://api.ahrefs.com/v3/site-explorer/domain-rating',
          key: env.DR_PROVIDER_KEY,
          concurrency: int(env, 'DR_PROVIDER_CONCURRENCY', 4, 1, 64),
        }
      : null,
    revenue: {
      keysSecret: secretKey(env, 'REVENUE_KEYS_SECRET'),
      stripeApiUrl: env.REVENUE_STRIPE_API_URL || env.STRIPE_API_URL || 'https://api.stripe.com',
    },
  };
}

/** A 32-byte key given as 64 hex digits or base64; null when unset. */
function secretKey(env: Env, key: string): Buffer | null {
  const raw = env[key];
  if (!raw) return null;
  const bytes = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (bytes.length !== 32) throw new Error(`${key} must be 32 bytes as 64 hex digits or base64 (openssl rand -hex 32)`);
  return bytes;
}
