// Configuration is read once, at start, from the environment given; nothing reads env on import.
export interface Config {
  port: number;
  host: string;
  siteUrl: string;
  siteKey: string;
  databaseUrl: string | null;
  dataDir: string;
  embeddedPgPort: number;
  redisUrl: string | null;
  cacheTtlSeconds: number;
  httpCacheMaxAge: number;
  maxBodyBytes: number;
  seedOnEmpty: boolean;
  viewRefreshCron: string;
  logLevel: string;
}

type Env = Record<string, string | undefined>;

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

export function loadConfig(env: Env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const siteUrl = (env.SITE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  try { new URL(siteUrl); } catch { throw new Error(`SITE_URL must be an absolute URL, got "${siteUrl}"`); }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    siteUrl,
    siteKey: env.SITE_KEY || 'main',
    databaseUrl: env.DATABASE_URL || null,
    dataDir: env.DATA_DIR || '.data',
    embeddedPgPort: int(env, 'EMBEDDED_PG_PORT', 54329, 1, 65535),
    redisUrl: env.REDIS_URL || null,
    cacheTtlSeconds: int(env, 'CACHE_TTL_SECONDS', 10, 0, 3600),
    httpCacheMaxAge: int(env, 'HTTP_CACHE_MAX_AGE', 30, 0, 86400),
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 1_048_576, 1024, 100_000_000),
    seedOnEmpty: bool(env, 'SEED_ON_EMPTY', true),
    viewRefreshCron: env.VIEW_REFRESH_CRON || '* * * * *',
    logLevel: env.LOG_LEVEL || 'info',
  };
}
