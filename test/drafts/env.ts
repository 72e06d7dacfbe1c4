// The end-to-end setting for the draft operations: fixture websites on loopback, the edge on a
// real port, and the worker running in-process against the same database (graphile-worker, the
// real jobs, the extractive drafter). It lives under test/ because it starts both the edge and the
// worker, which never import each other.
import { afterAll, beforeAll, expect } from 'bun:test';
import { eventually } from '../eventually.ts';
import { Logger, type Runner } from 'graphile-worker';
import { startTestApp, type TestApp } from '../harness.ts';
import { startFixtureSite, type FixtureSite } from '../fixture-site.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { startWorker } from '../../pipeline/worker.ts';
import { draftsOperations } from '../../api/operations/drafts.ts';
import { makeApiKey, makeCategory } from '../builders.ts';

export const opOutput = (name: string) => draftsOperations.find((o) => o.name === name)!.output;

type Who = 'owner' | 'other' | 'reader';

export interface DraftsEnv {
  app: TestApp;
  worker: Runner;
  site: FixtureSite;
  partner: ReturnType<typeof Bun.serve>;
  partnerHits: number;
  privateRedirect: FixtureSite;
  rival: FixtureSite;
  /** reader: the owner's read-only key. */
  keys: Record<Who, string>;
  ownerId: string;
}

/** Starts the setting before the file's tests and stops it after them. */
export function draftsEnv(opts: { socket?: boolean } = {}) {
  const env = { keys: { owner: '', other: '', reader: '' }, partnerHits: 0, ownerId: '' } as DraftsEnv;

  beforeAll(async () => {
    env.partner = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () => {
        env.partnerHits++;
        return new Response('<html><body>Partner</body></html>', { headers: { 'content-type': 'text/html' } });
      },
    });
    // Same address, another host name: another site, so the crawler must not follow the link.
    env.site = startFixtureSite({ externalUrl: `http://localhost:${env.partner.port}/` });
    env.privateRedirect = startFixtureSite({ redirectHomeTo: 'http://10.0.0.1/' });
    env.rival = startFixtureSite({ name: 'Quill Pad' });
    env.app = await startTestApp({
      socket: opts.socket,
      env: { ALLOW_LOOPBACK_FETCH: 'true', RATE_LIMIT_WRITES: '100000', RATE_LIMIT_AUTHENTICATED_READS: '100000' },
      prepare: async (sql) => {
        const p = await makeCategory(sql, { slug: 'productivity', name: 'Productivity', position: 1 });
        await makeCategory(sql, { slug: 'note-taking', name: 'Note Taking', position: 1, parentId: p.id });
        await makeCategory(sql, { slug: 'research', name: 'Research', position: 2, parentId: p.id });
        await makeCategory(sql, { slug: 'developer-tools', name: 'Developer Tools', position: 2 });
      },
    });
    const make = async (email: string, scopes: ('account:read' | 'listings:write')[]) => {
      const user = await findOrCreateUser(env.app.sql, email);
      return { user, key: await makeApiKey(env.app.sql, user, scopes) };
    };
    const owner = await make('owner@example.com', ['account:read', 'listings:write']);
    env.ownerId = owner.user.id;
    env.keys.owner = owner.key;
    env.keys.other = (await make('other@example.com', ['account:read', 'listings:write'])).key;
    env.keys.reader = await makeApiKey(env.app.sql, owner.user, ['account:read'], 'read only');
    env.worker = await startWorker(env.app.config, env.app.databaseUrl, { logger: new Logger(() => () => {}) });
  }, 120_000);

  afterAll(async () => {
    await env.worker?.stop();
    await env.app?.stop();
    for (const s of [env.site, env.privateRedirect, env.rival]) s?.stop();
    env.partner?.stop(true);
  }, 60_000);

  const call = (method: string, path: string, body?: unknown, who: Who = 'owner', headers: Record<string, string> = {}) =>
    env.app.json(path, {
      method,
      headers: { authorization: `Bearer ${env.keys[who]}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const patch = (id: string, body: unknown, who: Who = 'owner') => call('PATCH', `/drafts/${id}`, body, who);

  /** Polls get_draft until `done` holds (bounded, so a stuck pipeline fails the test instead of hanging). */
  async function until(id: string, done: (d: any) => boolean, what: string, ms = 30_000): Promise<any> {
    const read = async () => {
      const { status, body } = await call('GET', `/drafts/${id}`);
      expect(status).toBe(200);
      return body;
    };
    const body = await eventually(read, done, { tries: Math.ceil(ms / 150), everyMs: 150 });
    if (!done(body))
      throw new Error(
        `draft ${id} never got ${what}: ${JSON.stringify({ status: body.status, failure: body.failure, regenerating: body.regenerating, comparison: body.comparison })}`,
      );
    return body;
  }

  return { env, call, patch, until };
}

export const settled = (d: any) => d.status === 'ready' || d.status === 'failed';
