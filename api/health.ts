import type { Elysia } from 'elysia';
import { pendingMigrations } from '../sql/migrate.ts';
import type { AppDeps } from './deps.ts';

/**
 * Probes for load balancers and orchestrators.
 *
 * - `/healthz` is liveness: the process serves HTTP. It touches nothing else, so an outage of the
 *   database or Redis never gets a healthy edge restarted (it answers 503s by itself meanwhile).
 * - `/readyz` is readiness: the database answers (`select 1` within the connect time cap, or at
 *   once "down" while the breaker is open), every migration of this build is applied, and Redis
 *   is reachable when REDIS_URL is set. 200 or 503, JSON with each check.
 */
export function mountHealth(app: Elysia, deps: AppDeps) {
  let migrated = false; // migrations are only ever added: once applied, they stay applied
  app.get('/healthz', () => ({ ok: true }));
  app.get('/readyz', async () => {
    const checks: Record<string, 'ok' | 'down' | 'pending' | 'off'> = {};
    const database = deps.dbHealth ? deps.dbHealth.up && await deps.dbHealth.ping() : await deps.sql`select 1`.then(() => true, () => false);
    checks.database = database ? 'ok' : 'down';
    if (database && !migrated) {
      try { migrated = (await pendingMigrations(deps.sql)).length === 0; } catch { /* reported as pending */ }
    }
    checks.migrations = !database ? 'down' : migrated ? 'ok' : 'pending';
    const redis = deps.cache.redis;
    checks.redis = redis === 'up' ? 'ok' : redis;
    const ready = checks.database === 'ok' && checks.migrations === 'ok' && checks.redis !== 'down';
    return new Response(JSON.stringify({ ready, checks }), {
      status: ready ? 200 : 503,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...(ready ? {} : { 'retry-after': String(deps.config.db.retryAfterSeconds) }) },
    });
  });
}
