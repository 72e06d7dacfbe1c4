// Jobs nobody is waiting on (an operator's re-crawl batch, the sweep's badge re-checks) run after
// those a person is waiting on, whatever order they were added in.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { Logger, type Task } from 'graphile-worker';
import { freshDatabase } from '../../test/db.ts';
import { runJobs } from '../../test/jobs.ts';
import { sweepListings } from '../listings/publishing.ts';
import { makeListing } from '../../test/builders.ts';
import { ensureSite } from '../../sql/site.ts';
import { BACKGROUND, enqueue, JOBS } from './index.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
}, 60_000);
afterAll(() => db.drop());

test('background jobs wait behind the ones a person is waiting on', async () => {
  const site = await ensureSite(db.sql, 'jobs', 'http://localhost');
  const queued = await makeListing(db.sql, { siteId: site.id, status: 'awaiting_badge', columns: { launch_week: '2099-01-05' } });
  // Added first: an operator's re-crawl and the hourly sweep's re-check of a queued listing.
  await enqueue(db.sql, JOBS.recrawl_listing, { batch_id: crypto.randomUUID(), listing_id: 1, host: 'example.test' });
  expect(await sweepListings(db.sql)).toMatchObject({ recheck: 1 });
  // Then a submitted site's crawl and an owner's own badge check.
  await enqueue(db.sql, JOBS.crawl_draft, { draft_id: crypto.randomUUID() });
  await enqueue(db.sql, JOBS.check_badge, { listing_id: queued.id + 1000 });
  const priorities = await db.sql`select task_identifier as task, priority from graphile_worker.jobs order by id`;
  expect([...priorities]).toEqual([
    { task: 'recrawl_listing', priority: BACKGROUND },
    { task: 'check_badge', priority: BACKGROUND },
    { task: 'crawl_draft', priority: 0 },
    { task: 'check_badge', priority: 0 },
  ]);

  const ran: string[] = [];
  const record =
    (name: string): Task =>
    async (payload) => {
      ran.push(`${name}:${(payload as { listing_id?: number }).listing_id ?? ''}`);
    };
  await runJobs({
    connectionString: db.url,
    concurrency: 1,
    logger: new Logger(() => () => {}),
    taskList: { recrawl_listing: record('recrawl_listing'), check_badge: record('check_badge'), crawl_draft: record('crawl_draft') },
  });
  expect(ran).toEqual(['crawl_draft:', `check_badge:${queued.id + 1000}`, 'recrawl_listing:1', `check_badge:${queued.id}`]);
});
