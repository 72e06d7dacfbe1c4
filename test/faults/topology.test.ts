import { afterAll, beforeAll, expect, test } from 'bun:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { loadConfig } from '../../core/config.ts';
import { recoveryHorizons } from '../../pipeline/recovery.ts';
import { ensureSite } from '../../sql/site.ts';
import { makeApiKey, makeListing } from '../builders.ts';
import { freshDatabase } from '../db.ts';
import { until } from '../eventually.ts';
import { startFixtureSite, type FixtureSite } from '../fixture-site.ts';
import { freePort } from '../ports.ts';
import { testRedis, type TestRedis } from '../redis.ts';

// the production topology on one machine. Two edge processes and two worker
// processes (`bun api/main.ts`, `bun pipeline/main.ts`) on one PostgreSQL and one private Redis.
// Load goes through both edges; a write on one edge is visible through the other within a second
// (cache invalidation by NOTIFY); a write budget is shared (Redis); 40 crawls finish, each draft
// once, while a worker is SIGKILLed mid-run and started again (its locks are moved back in SQL
// instead of waiting out the recovery horizon).
const root = join(import.meta.dirname, '../..');
const WRITES = 4; // RATE_LIMIT_WRITES per person and window, shared by both edges
const SITES = 40;
let db: Awaited<ReturnType<typeof freshDatabase>>;
let redis: TestRedis;
const procs: ChildProcess[] = [];
const edges: string[] = [];
let env: Record<string, string> = {};
let editKey = '';
let limitKey = '';
const submitKeys: string[] = [];
let listing = { id: 0, slug: '' };
let fixtures: FixtureSite[] = [];

function start(entry: string, extra: Record<string, string> = {}): { child: ChildProcess; out: () => string } {
  const child = spawn(process.execPath, [join(root, entry)], { cwd: root, env: { ...process.env, ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  procs.push(child);
  return { child, out: () => out };
}

beforeAll(async () => {
  [db, redis] = await Promise.all([freshDatabase(), testRedis({ private: true })]);
  const ports = [await freePort(), await freePort()];
  const siteUrl = `http://127.0.0.1:${ports[0]}`;
  env = {
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    SITE_URL: siteUrl,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ALLOW_LOOPBACK_FETCH: 'true',
    DRAFTER: 'extractive',
    RATE_LIMIT_WRITES: String(WRITES),
    RATE_LIMIT_ANONYMOUS_READS: '1000000',
    RATE_LIMIT_AUTHENTICATED_READS: '1000000',
    VIEW_REFRESH_CRON: '0 0 1 1 *',
  };
  const site = await ensureSite(db.sql, 'main', siteUrl);
  const owner = await findOrCreateUser(db.sql, 'owner@topology.example');
  editKey = await makeApiKey(db.sql, owner, ['account:read', 'listings:write'], 'edit');
  // Write budgets are per person (across all their keys): the limit test and each batch of
  // submissions use a person of their own.
  const person = (name: string) => findOrCreateUser(db.sql, `${name}@topology.example`);
  limitKey = await makeApiKey(db.sql, await person('limit'), ['account:read', 'listings:write'], 'limit');
  for (let i = 0; i < SITES / WRITES; i++)
    submitKeys.push(await makeApiKey(db.sql, await person(`submitter-${i}`), ['account:read', 'listings:write'], `submit-${i}`));
  const made = await makeListing(db.sql, {
    siteId: site.id,
    name: 'Topology Notes',
    columns: { owner_user_id: owner.id, tagline: 'Before the edit', launched_at: new Date(Date.now() - 86_400_000) },
  });
  listing = { id: made.id, slug: made.slug };
  await db.sql`update listings set launch_week = date_trunc('week', now() at time zone 'utc')::date - 7 where id = ${made.id}`;
  await db.sql`insert into drafts (site_id, user_id, url, domain, status, listing_id, submitted_at)
               values (${site.id}, ${owner.id}, 'https://topology-notes.test', 'topology-notes.test', 'ready', ${made.id}, now())`;
  await db.sql`select refresh_directory_views()`;
  for (const port of ports) {
    start('api/main.ts', { PORT: String(port) });
    edges.push(`http://127.0.0.1:${port}`);
  }
  await Promise.all(
    edges.map((base) =>
      until(
        `the edge at ${base}`,
        () =>
          fetch(`${base}/readyz`).then(
            (r) => r.ok,
            () => false,
          ),
        { ms: 60_000 },
      ),
    ),
  );
  fixtures = Array.from({ length: SITES }, (_, i) => startFixtureSite({ name: `Product ${i + 1}` }));
}, 120_000);

afterAll(async () => {
  for (const p of procs)
    if (p.exitCode === null && p.signalCode === null) {
      p.kill('SIGKILL');
      await new Promise((r) => p.once('exit', r));
    }
  for (const f of fixtures) f.stop();
  await redis?.stop();
  await db?.drop();
});

const api = (i: number, path: string, init?: RequestInit) => fetch(`${edges[i % 2]}/api/v1${path}`, init);
const write = (i: number, key: string, method: string, path: string, body: unknown) =>
  api(i, path, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('reads through both edges all answer 200', async () => {
  const paths = ['/site', '/categories', `/listings/${listing.slug}`];
  const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => api(i, paths[i % 3]).then((r) => r.arrayBuffer().then(() => r.status))));
  expect(answers.filter((s) => s !== 200)).toEqual([]);
});

test('a write on one edge is visible through the other within one second', async () => {
  // Both edges have the listing cached (Redis) before the edit.
  for (let i = 0; i < 2; i++) expect((await (await api(i, `/listings/${listing.slug}`)).json()).tagline).toBe('Before the edit');
  const res = await write(0, editKey, 'PATCH', `/me/listings/${listing.id}`, { fields: { tagline: 'After the edit' } });
  expect(res.status).toBe(200);
  const edited = performance.now();
  const seen = await until(
    'the edit through the other edge',
    async () => {
      const got = await (await api(1, `/listings/${listing.slug}`)).json();
      return got.tagline === 'After the edit' ? performance.now() - edited : null;
    },
    { ms: 5000, everyMs: 50 },
  );
  console.log(`edit on edge A visible through edge B after ${Math.round(seen)} ms`);
  expect(seen).toBeLessThan(1000);
});

test('the write budget is shared by both edges', async () => {
  const statuses: number[] = [];
  // Each spends the write budget (the listing does not exist: 404, but a write was attempted).
  for (let i = 0; i < WRITES + 2; i++) statuses.push((await write(i, limitKey, 'PATCH', '/me/listings/999999', { fields: { tagline: 'x' } })).status);
  expect(statuses.slice(0, WRITES)).toEqual(Array(WRITES).fill(404));
  expect(statuses.slice(WRITES)).toEqual([429, 429]); // on edge A and on edge B
});

test('40 crawls finish, each draft once, while a worker is SIGKILLed mid-run and restarted', async () => {
  const first = start('pipeline/main.ts');
  const ids: string[] = await Promise.all(
    fixtures.map(async (f, i) => {
      const res = await write(i, submitKeys[Math.floor(i / WRITES)], 'POST', '/drafts', { url: f.url });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    }),
  );
  // Only the first worker runs yet: whatever holds a crawl now is it.
  const workerId = await until(
    'the first worker to take crawls',
    async () => (await db.sql<{ locked_by: string }[]>`select locked_by from graphile_worker._private_jobs where locked_by is not null limit 1`)[0]?.locked_by,
    { ms: 60_000, everyMs: 20 },
  );
  const second = start('pipeline/main.ts');
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));
  const [{ stranded }] = await db.sql`select count(*)::int as stranded from graphile_worker._private_jobs where locked_by = ${workerId}`;
  const [{ doneBefore }] = await db.sql`select count(*)::int as "doneBefore" from drafts where id = any(${ids}::uuid[]) and status = 'ready'`;
  console.log(`worker killed holding ${stranded} jobs with ${doneBefore} of ${SITES} drafts ready`);
  // Past the recovery horizon (moved back instead of slept through), the restarted worker takes them.
  const horizon = recoveryHorizons(loadConfig({})).crawl_draft;
  await db.sql`update graphile_worker._private_jobs set locked_at = now() - make_interval(secs => ${horizon + 5}) where locked_by = ${workerId}`;
  start('pipeline/main.ts');
  const drafts = await until(
    'every draft to finish',
    async () => {
      const rows = await db.sql<{ status: string }[]>`select status from drafts where id = any(${ids}::uuid[])`;
      return rows.every((r) => r.status === 'ready' || r.status === 'failed') ? rows : null;
    },
    { ms: 90_000, everyMs: 250 },
  );
  expect(drafts.length).toBe(SITES);
  expect(drafts.filter((d) => d.status !== 'ready')).toEqual([]);
  // Each submission made one draft, and no crawl job is left behind (locked, waiting or failed).
  const [{ n }] = await db.sql`select count(*)::int as n from drafts where url like 'http://127.0.0.1:%'`;
  expect(n).toBe(SITES);
  const [{ left }] = await db.sql`
    select count(*)::int as left from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
    where t.identifier = 'crawl_draft'`;
  expect(left).toBe(0);
  expect(second.child.exitCode).toBeNull();
}, 150_000);
