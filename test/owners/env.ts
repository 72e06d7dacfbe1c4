// The end-to-end setting for the owner operations: the edge on a real port, the worker in-process
// (graphile-worker, the real jobs), owner websites on loopback, and three credentials.
import { afterAll, beforeAll } from 'bun:test';
import { eventually } from '../eventually.ts';
import { Logger, type Runner } from 'graphile-worker';
import { startTestApp, type TestApp } from '../harness.ts';
import { createApiKey } from '../../core/auth/api-keys.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { SITE_CHECK_LIMITS, startWorker } from '../../pipeline/worker.ts';
import { createSafeFetcher } from '../../core/net/ssrf-fetch.ts';
import type { Sql } from '../../sql/db.ts';

export type Who = 'owner' | 'other' | 'reader';

export interface OwnersEnv {
  app: TestApp;
  worker: Runner | null;
  keys: Record<Who, string>;
  userIds: Record<'owner' | 'other', string>;
}

export interface OwnersEnvOptions {
  worker?: boolean;
  siteCheckTimeoutMs?: number;
  /** Configuration; a function is read when the setting starts (after earlier beforeAll hooks). */
  env?: Record<string, string> | (() => Record<string, string>);
  prepare?: (sql: Sql, siteId: number) => Promise<void>;
  /** false: the edge answers through its handler, without a port (see startTestApp). */
  socket?: boolean;
}

let seq = 0;

/** A company and its listing made straight in SQL (saved by a submitted draft unless told otherwise). */
export async function makeListing(
  sql: Sql,
  o: { siteId: number; userId: string | null; url?: string; name?: string; status?: string; submitted?: boolean; plan?: string },
): Promise<number> {
  const n = ++seq;
  const url = o.url ?? `https://product${n}-${process.pid}.example/`;
  const domain = new URL(url).hostname;
  const name = o.name ?? `Product ${n}`;
  const [c] = await sql<{ id: string }[]>`
    insert into companies (name, domain, website_url) values (${name}, ${domain}, ${url})
    on conflict ((lower(domain))) do update set name = companies.name returning id::text`;
  const [l] = await sql<{ id: number }[]>`
    insert into listings (site_id, company_id, owner_user_id, slug, name, url, domain, status, plan)
    values (${o.siteId}, ${c.id}, ${o.userId}, ${`product-${n}-${process.pid}`}, ${name}, ${url}, ${domain}, ${o.status ?? 'draft'}, ${o.plan ?? 'free'})
    returning id::int`;
  if (o.submitted !== false && o.userId) {
    await sql`insert into drafts (site_id, user_id, url, domain, status, listing_id, submitted_at)
              values (${o.siteId}, ${o.userId}, ${url}, ${domain}, 'ready', ${l.id}, now())`;
  }
  return l.id;
}

export function ownersEnv(opts: OwnersEnvOptions = {}) {
  const env = { keys: { owner: '', other: '', reader: '' }, userIds: { owner: '', other: '' }, worker: null } as OwnersEnv;

  beforeAll(async () => {
    env.app = await startTestApp({
      socket: opts.socket,
      env: { ALLOW_LOOPBACK_FETCH: 'true', ...(typeof opts.env === 'function' ? opts.env() : opts.env) },
      prepare: opts.prepare,
    });
    const owner = await findOrCreateUser(env.app.sql, 'owner@example.com');
    const other = await findOrCreateUser(env.app.sql, 'other@example.com');
    env.userIds = { owner: owner.id, other: other.id };
    env.keys.owner = (await createApiKey(env.app.sql, { userId: owner.id, name: 'test', scopes: ['account:read', 'listings:write'] })).secret;
    env.keys.other = (await createApiKey(env.app.sql, { userId: other.id, name: 'test', scopes: ['account:read', 'listings:write'] })).secret;
    env.keys.reader = (await createApiKey(env.app.sql, { userId: owner.id, name: 'read only', scopes: ['account:read'] })).secret;
    if (opts.worker) {
      // Short time cap so the slow-site case ends quickly; everything else as in production.
      const siteCheckFetcher = createSafeFetcher({
        allowLoopback: true,
        userAgent: 'test',
        timeoutMs: opts.siteCheckTimeoutMs ?? 2000,
        maxBytes: SITE_CHECK_LIMITS.maxBytes,
      });
      env.worker = await startWorker(env.app.config, env.app.databaseUrl, { logger: new Logger(() => () => {}), siteCheckFetcher });
    }
  }, 120_000);

  afterAll(async () => {
    await env.worker?.stop();
    await env.app?.stop();
  }, 60_000);

  const call = (method: string, path: string, body?: unknown, who: Who = 'owner', headers: Record<string, string> = {}) =>
    env.app.json(path, {
      method,
      headers: { authorization: `Bearer ${env.keys[who]}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** Polls until `done` holds (bounded, so a stuck job fails the test instead of hanging). */
  async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, ms = 30_000): Promise<T> {
    const v = await eventually(read, done, { tries: Math.ceil(ms / 100), everyMs: 100 });
    if (!done(v)) throw new Error(`never got ${what}: ${JSON.stringify(v)}`);
    return v;
  }

  /** Runs a job now, as the worker's schedule or a retry would (the worker picks it up at once). */
  const runJob = (name: string, payload: Record<string, unknown> = {}) =>
    env.app.sql`select graphile_worker.add_job(${name}, ${env.app.sql.json({ ...payload, v: 1 } as never)}::json)`;

  return { env, call, until, runJob };
}
