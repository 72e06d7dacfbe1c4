import { Elysia } from 'elysia';
import { pendingMigrations } from '../sql/migrate.ts';
import type { AppDeps } from './deps.ts';

/**
 * Probes for load balancers and orchestrators.
 *
 * - `/healthz` is liveness: the process serves HTTP. It touches nothing else, so an outage of the
 *   database or Redis never gets a healthy edge restarted (it answers 503s by itself meanwhile).
 * - `/readyz` is readiness: the database answers (`select 1` within the connect time cap, or at
 *   once "down" while the breaker is open), every migration of this build is applied, and Redis
 *   is reachable when REDIS_URL is set. 200 or 503, JSON with each check; Redis down is reported
 *   (`degraded: true`, checks.redis "down") with a 200, since the edge then serves from in-process state.
 */
export function healthPlugin(deps: Pick<AppDeps, 'sql' | 'cache' | 'config' | 'dbHealth'>) {
  let migrated = false; // migrations are only ever added: once applied, they stay applied
  return new Elysia({ name: 'health' })
    .get('/healthz', () => ({ ok: true }))
    .get('/readyz', async () => {
      const checks: Record<string, 'ok' | 'down' | 'pending' | 'off'> = {};
      const database = deps.dbHealth
        ? deps.dbHealth.up && (await deps.dbHealth.ping())
        : await deps.sql`select 1`.then(
            () => true,
            () => false,
          );
      checks.database = database ? 'ok' : 'down';
      if (database && !migrated) {
        try {
          migrated = (await pendingMigrations(deps.sql)).length === 0;
        } catch {
          /* reported as pending */
        }
      }
      checks.migrations = !database ? 'down' : migrated ? 'ok' : 'pending';
      const redis = deps.cache.redis;
      checks.redis = redis === 'up' ? 'ok' : redis;
      // Redis down degrades (the cache and limits run in process) but does not take the edge out of
      // rotation: every edge would fail the probe together and the outage would become total.
      const ready = checks.database === 'ok' && checks.migrations === 'ok';
      const degraded = checks.redis === 'down';
      return new Response(JSON.stringify({ ready, degraded, checks }), {
        status: ready ? 200 : 503,
        headers: {
          'content-type': 'application/json',
          'cache-control': 'no-store',
          ...(ready ? {} : { 'retry-after': String(deps.config.db.retryAfterSeconds) }),
        },
      });
    });
}
