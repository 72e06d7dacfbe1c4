import { afterAll, beforeAll, expect, test } from 'bun:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig } from '../../core/config.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { insertDraft } from '../../core/drafts/store.ts';
import { ensureSite } from '../../sql/site.ts';
import { transaction, type Sql } from '../../sql/db.ts';
import { recoverStaleJobs, recoveryHorizons } from '../../pipeline/recovery.ts';
import { fixturePages } from '../fixture-site.ts';
import { freshDatabase } from '../db.ts';
import { until } from '../eventually.ts';
import '../../api/http/validate.ts'; // registers the string formats (uuid) that payload checks use, as in the edge

// A crawl cut off by a killed worker (SIGKILL of a `bun pipeline/main.ts`
// process mid-crawl) is retried by the next worker once its lock is past the crawl horizon, so
// the draft reaches ready soon after instead of sitting in `crawling` until the 15-minute sweep.
// The horizon is not slept through: locked_at is moved back in SQL, as graphile-worker's own
// tests do.
const root = join(import.meta.dirname, '../..');
let db: Awaited<ReturnType<typeof freshDatabase>>;
let userId = '';
let siteId = 0;
const workers: ChildProcess[] = [];

// A fixture site whose every request waits until the test releases it: the crawl hangs mid-way.
const held = Promise.withResolvers<void>();
let hits = 0;
const pages = fixturePages();
const site = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    hits++;
    await held.promise;
    const page = pages.get(new URL(request.url).pathname);
    return page ? new Response(page.body, { headers: { 'content-type': page.type } }) : new Response('not found', { status: 404 });
  },
});

beforeAll(async () => {
  db = await freshDatabase();
  siteId = (await ensureSite(db.sql, 'main', 'http://127.0.0.1:9')).id;
  userId = (await findOrCreateUser(db.sql, 'crash@example.com')).id;
}, 60_000);

afterAll(async () => {
  for (const w of workers)
    if (w.exitCode === null && w.signalCode === null) {
      w.kill('SIGKILL');
      await new Promise((r) => w.once('exit', r));
    }
  held.resolve();
  site.stop(true);
  await db?.drop();
});

function startWorkerProcess(): ChildProcess {
  const child = spawn(process.execPath, [join(root, 'pipeline/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      ALLOW_LOOPBACK_FETCH: 'true',
      LOG_LEVEL: 'warn',
      SITE_URL: 'http://127.0.0.1:9',
      VIEW_REFRESH_CRON: '0 0 1 1 *',
    },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  workers.push(child);
  return child;
}

const submit = (sql: Sql) => transaction(sql, (t) => insertDraft(t, { siteId, userId, url: site.url.toString(), domain: '127.0.0.1' }));
const draftStatus = async (id: string) =>
  (await db.sql`select status, failure_reason from drafts where id = ${id}`)[0] as { status: string; failure_reason: string | null };
const crawlJob = async (id: string) =>
  (
    await db.sql`
  select j.locked_at, j.locked_by, j.attempts from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
  where t.identifier = 'crawl_draft' and j.payload->>'draft_id' = ${id}`
  )[0];

test('SIGKILL of the worker mid-crawl: the next worker retries the crawl and the draft becomes ready', async () => {
  const id = await submit(db.sql);
  const first = startWorkerProcess();
  await until('the crawl to start', async () => hits > 0 && (await crawlJob(id))?.locked_at);
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  const killedAt = Date.now();
  expect((await draftStatus(id)).status).toBe('crawling');
  const locked = await crawlJob(id);
  expect(locked.locked_by).toBeTruthy();
  held.resolve();

  // Before the horizon nothing is taken from a worker that may still be running the job.
  const horizons = recoveryHorizons(loadConfig({}));
  expect((await recoverStaleJobs(db.sql, horizons)).unlocked).toBe(0);
  expect((await crawlJob(id)).locked_by).toBe(locked.locked_by);

  // Past the horizon (moved back instead of slept through), a new worker retries the crawl.
  await db.sql`update graphile_worker._private_jobs set locked_at = now() - make_interval(secs => ${horizons.crawl_draft + 5})
               where locked_by = ${locked.locked_by}`;
  const restartedAt = Date.now();
  startWorkerProcess();
  const done = await until('the draft to finish', async () => {
    const d = await draftStatus(id);
    return d.status === 'ready' || d.status === 'failed' ? d : null;
  });
  console.log(
    `worker killed mid-crawl: draft ${done.status} ${Date.now() - restartedAt} ms after a new worker started (${Date.now() - killedAt} ms after the kill, horizon moved back in SQL)`,
  );
  expect(done.status).toBe('ready');
  expect(await crawlJob(id)).toBeUndefined(); // the job completed and is gone
}, 180_000);

test('a job killed on its last attempt fails its draft with a reason at once', async () => {
  const id = await submit(db.sql);
  await db.sql`update graphile_worker._private_jobs set locked_at = now() - interval '10 minutes', locked_by = 'worker-dead', attempts = max_attempts
               where payload->>'draft_id' = ${id}`;
  const r = await recoverStaleJobs(db.sql, recoveryHorizons(loadConfig({})));
  expect(r.failedDrafts).toBe(1);
  expect(await draftStatus(id)).toEqual({ status: 'failed', failure_reason: 'crawl_error' });
  expect((await crawlJob(id)).locked_by).toBeNull();
});
