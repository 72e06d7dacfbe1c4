// The setting for order tests: the edge on a real port over a fresh database with the reference
// data (categories, the nine products and their prices), two owners with API keys, a builder for
// listings in any state, and optionally the worker (fulfilment jobs) in-process.
import { afterAll, beforeAll } from 'bun:test';
import { Logger, type Runner } from 'graphile-worker';
import { startTestApp, type TestApp } from '../harness.ts';
import { createApiKey } from '../../core/auth/api-keys.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { startWorker } from '../../pipeline/worker.ts';
import { loadReferenceData } from '../../seeds/reference.ts';

export type Who = 'owner' | 'other' | 'reader';

export interface OrdersEnv {
  app: TestApp;
  worker: Runner | null;
  keys: Record<Who, string>;
  userIds: Record<'owner' | 'other', string>;
}

export interface ListingSpec {
  owner?: 'owner' | 'other';
  status?: string;
  plan?: 'free' | 'paid';
  launch_week?: string | null;
  launched?: boolean;
  primary?: string;
  extras?: string[];
  slug?: string;
}

export function ordersEnv(opts: { worker?: boolean; env?: Record<string, string>; socket?: boolean } = {}) {
  const env = { keys: { owner: '', other: '', reader: '' }, userIds: { owner: '', other: '' }, worker: null } as unknown as OrdersEnv;
  let n = 0;

  beforeAll(async () => {
    env.app = await startTestApp({
      socket: opts.socket,
      env: { ...opts.env },
      prepare: async (sql, siteId) => {
        await loadReferenceData(sql, siteId);
      },
    });
    for (const who of ['owner', 'other'] as const) {
      const user = await findOrCreateUser(env.app.sql, `${who}@example.com`);
      env.userIds[who] = user.id;
      env.keys[who] = (await createApiKey(env.app.sql, { userId: user.id, name: 't', scopes: ['account:read', 'listings:write', 'orders:write'] })).secret;
    }
    env.keys.reader = (await createApiKey(env.app.sql, { userId: env.userIds.owner, name: 'read', scopes: ['account:read'] })).secret;
    if (opts.worker) env.worker = await startWorker(env.app.config, env.app.databaseUrl, { logger: new Logger(() => () => {}), concurrency: 4 });
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

  /** Inserts a listing in the given state and returns its id. */
  async function listing(spec: ListingSpec = {}): Promise<number> {
    const sql = env.app.sql;
    const slug = spec.slug ?? `product-${++n}-${Math.floor(Math.random() * 1e6)}`;
    const [co] = await sql`insert into companies (name, domain, website_url) values (${slug}, ${`${slug}.example`}, ${`https://${slug}.example`}) returning id`;
    const [cat] = await sql`select id from categories where slug = ${spec.primary ?? 'developer-tools'}`;
    const launched = spec.launched ?? spec.status === 'live';
    const [l] = await sql`
      insert into listings (site_id, company_id, owner_user_id, slug, name, url, domain, tagline, status, plan, launch_week, launched_at, primary_category_id)
      values (${env.app.siteId}, ${co.id}, ${env.userIds[spec.owner ?? 'owner']}, ${slug}, ${`Product ${slug}`}, ${`https://${slug}.example`}, ${`${slug}.example`},
              'A product for tests', ${spec.status ?? 'draft'}, ${spec.plan ?? 'free'},
              ${spec.launch_week ?? (launched ? sql`date_trunc('week', now() at time zone 'utc')::date` : null)},
              ${launched ? sql`now() - interval '1 day'` : null}, ${cat.id})
      returning id::int`;
    await sql`insert into listing_categories (listing_id, category_id, is_primary) values (${l.id}, ${cat.id}, true)`;
    for (const e of spec.extras ?? []) {
      await sql`insert into listing_categories (listing_id, category_id, is_primary) select ${l.id}, id, false from categories where slug = ${e}`;
    }
    return l.id;
  }

  /** The bookable weeks list_products shows for launch. */
  async function weeks(): Promise<string[]> {
    const { body } = await env.app.json('/products');
    return body.items.find((p: any) => p.code === 'launch').weeks;
  }

  return { env, call, listing, weeks };
}
