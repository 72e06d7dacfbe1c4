// The submission jobs one at a time (graphile-worker runOnce) against a real database, real
// fixture sites on loopback and a real OpenAI-compatible server on loopback: failure reasons,
// re-delivered jobs, the last attempt, invented LLM values, and the sweep.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Logger, quickAddJob, type TaskList } from 'graphile-worker';
import { runJobs } from '../../test/jobs.ts';
import { freshDatabase } from '../../test/db.ts';
import { startFixtureSite, type FixtureSite } from '../../test/fixture-site.ts';
import { ensureSite } from '../../sql/site.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { createSafeFetcher } from '../../core/net/ssrf-fetch.ts';
import { draftById, insertDraft } from '../../core/drafts/store.ts';
import { DRAFT_LIST_FIELDS, DRAFT_TEXT_FIELDS } from '../../core/drafts/fields.ts';
import { createDrafter } from '../drafting/index.ts';
import { CRAWL_LIMITS, databaseTasks, draftTasks } from '../worker.ts';
import type { DraftDeps } from './draft-deps.ts';

const logger = new Logger(() => () => {});
const UA = 'LaunchpadDirectoryBot/1.0 (+http://127.0.0.1/bot)';
let db: Awaited<ReturnType<typeof freshDatabase>>;
let siteId = 0;
let userId = '';
let site: FixtureSite;
let llm: ReturnType<typeof Bun.serve>;
let llmReply: () => Response = () => new Response('down', { status: 500 });
const servers: { stop(): void }[] = [];

const depsWith = (drafter: DraftDeps['drafter']): DraftDeps => ({
  sql: db.sql,
  drafter,
  userAgent: UA,
  crawl: { ...CRAWL_LIMITS, maxMsTotal: 10_000 },
  competitorMaxPages: 10,
  fetcher: createSafeFetcher({ allowLoopback: true, userAgent: UA, timeoutMs: 3000 }),
});
const extractive = () => createDrafter({ kind: 'extractive', openaiApiKey: null, openaiBaseUrl: null, model: 'x', timeoutMs: 1000 });
const llmDrafter = () =>
  createDrafter({ kind: 'llm', openaiApiKey: 'test-key', openaiBaseUrl: `http://127.0.0.1:${llm.port}/v1`, model: 'test', timeoutMs: 3000 }, { maxRetries: 0 });
const tasksOf = (deps: DraftDeps): TaskList => ({ ...databaseTasks(deps), ...draftTasks(deps) });

async function runAll(tasks: TaskList) {
  // runOnce runs every job that is due, then returns.
  await runJobs({ connectionString: db.url, taskList: tasks, logger });
}
const newDraft = (url: string) => db.sql.begin((tx) => insertDraft(tx as never, { siteId, userId, url, domain: new URL(url).hostname }));

beforeAll(async () => {
  db = await freshDatabase();
  siteId = (await ensureSite(db.sql, 'main', 'http://localhost')).id;
  userId = (await findOrCreateUser(db.sql, 'owner@example.com')).id;
  site = startFixtureSite();
  servers.push(site);
  llm = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => llmReply() });
}, 60_000);
afterAll(async () => {
  for (const s of servers) s.stop();
  llm?.stop(true);
  await db?.drop();
});

describe('crawl failures end in a visible failed state', () => {
  const serve = (fetch: (r: Request) => Response) => {
    const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch });
    servers.push({ stop: () => s.stop(true) });
    return `http://127.0.0.1:${s.port}/`;
  };
  const cases: [string, () => string][] = [
    [
      'robots_disallowed',
      () =>
        serve((r) =>
          new URL(r.url).pathname === '/robots.txt'
            ? new Response('User-agent: *\nDisallow: /\n')
            : new Response('<html>hi</html>', { headers: { 'content-type': 'text/html' } }),
        ),
    ],
    ['not_html', () => serve((r) => (new URL(r.url).pathname === '/robots.txt' ? new Response('', { status: 404 }) : Response.json({ hello: 'world' })))],
    ['http_error', () => serve((r) => (new URL(r.url).pathname === '/robots.txt' ? new Response('', { status: 404 }) : new Response('gone', { status: 410 })))],
    [
      'unreachable',
      () => {
        const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') });
        const port = s.port;
        s.stop(true); // nothing listens there any more
        return `http://127.0.0.1:${port}/`;
      },
    ],
  ];
  for (const [reason, url] of cases) {
    test(reason, async () => {
      const id = await newDraft(url());
      await runAll(tasksOf(depsWith(extractive())));
      const d = await draftById(db.sql, id);
      expect(d).toMatchObject({ status: 'failed', failure_reason: reason });
      expect(d!.failure_detail!.length).toBeGreaterThan(0);
    }, 30_000);
  }
});

describe('re-delivered jobs do nothing twice', () => {
  test('a crawl_draft delivered again after the crawl finds the draft past crawling and returns', async () => {
    const id = await newDraft(site.url);
    const tasks = tasksOf(depsWith(extractive()));
    await runJobs({ connectionString: db.url, taskList: { crawl_draft: tasks.crawl_draft }, logger });
    const hitsAfterCrawl = site.hits.length;
    expect((await draftById(db.sql, id))!.status).toBe('drafting');
    await quickAddJob({ connectionString: db.url }, 'crawl_draft', { draft_id: id, v: 1 });
    await runJobs({ connectionString: db.url, taskList: { crawl_draft: tasks.crawl_draft }, logger });
    expect(site.hits.length).toBe(hitsAfterCrawl);
    const [{ pages }] = await db.sql`select count(*)::int as pages from draft_pages where draft_id = ${id}`;
    expect(pages).toBe(6);
    await runAll(tasks);
    const ready = await draftById(db.sql, id);
    expect(ready!.status).toBe('ready');
    // draft_profile delivered again: the draft is ready already, nothing changes.
    await quickAddJob({ connectionString: db.url }, 'draft_profile', { draft_id: id, v: 1 });
    await runAll(tasks);
    const again = await draftById(db.sql, id);
    expect(again!.updated_at).toEqual(ready!.updated_at);
  }, 30_000);
});

describe('the LLM drafter through the pipeline', () => {
  test('an endpoint that keeps failing ends the draft as drafting_failed on the last attempt, not before', async () => {
    llmReply = () => new Response(JSON.stringify({ error: { message: 'overloaded' } }), { status: 503, headers: { 'content-type': 'application/json' } });
    const tasks = tasksOf(depsWith(llmDrafter()));
    const id = await newDraft(site.url);
    await runJobs({ connectionString: db.url, taskList: { crawl_draft: tasks.crawl_draft }, logger });
    await runJobs({ connectionString: db.url, taskList: { draft_profile: tasks.draft_profile }, logger });
    // First of three attempts failed: still drafting, the job waits for its retry.
    expect((await draftById(db.sql, id))!.status).toBe('drafting');
    const [job] =
      await db.sql`select attempts, max_attempts from graphile_worker.jobs where task_identifier = 'draft_profile' and key = ${'draft_profile:' + id}`;
    expect(job).toMatchObject({ attempts: 1, max_attempts: 3 });
    // Bring the retries forward instead of sleeping through the backoff.
    for (let i = 0; i < 2; i++) {
      await db.sql`select graphile_worker.reschedule_jobs(array(select id from graphile_worker.jobs where key = ${'draft_profile:' + id}), run_at => now())`;
      await runJobs({ connectionString: db.url, taskList: { draft_profile: tasks.draft_profile }, logger });
    }
    const d = await draftById(db.sql, id);
    expect(d).toMatchObject({ status: 'failed', failure_reason: 'drafting_failed' });
    expect(d!.failure_detail).toContain('503');
  }, 30_000);

  test('invented values and quotes are dropped to not_found; quoted ones are kept', async () => {
    const fields: Record<string, { value: string | string[] | null; evidence: { quote: string; url: string }[] }> = {};
    for (const f of DRAFT_TEXT_FIELDS) fields[f] = { value: null, evidence: [] };
    for (const f of DRAFT_LIST_FIELDS) fields[f] = { value: [], evidence: [] };
    const about = new URL('/about', site.url).href;
    fields.name = { value: 'Lumen Notes', evidence: [{ quote: 'Lumen Notes', url: site.url }] };
    fields.founded_year = { value: '1850', evidence: [{ quote: 'founded in 1850 by Napoleon Bonaparte', url: site.url }] }; // the hidden text
    fields.city = { value: 'Reykjavik', evidence: [{ quote: 'Lumen keeps a secret office in Reykjavik', url: new URL('/internal/roadmap', site.url).href }] };
    fields.tagline = { value: 'The best app in the world', evidence: [{ quote: 'The best app in the world', url: about }] };
    const output = {
      fields,
      faqs: [],
      founders: [{ name: 'Napoleon Bonaparte', title: 'Emperor', bio: null, evidence: [{ quote: 'Napoleon Bonaparte', url: site.url }] }],
      company_socials: [],
      founder_socials: [],
      story: [],
      milestones: [],
    };
    llmReply = () =>
      Response.json({
        id: 'c',
        object: 'chat.completion',
        created: 0,
        model: 'test',
        choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(output), refusal: null }, finish_reason: 'stop', logprobs: null }],
      });
    const id = await newDraft(site.url);
    await runAll(tasksOf(depsWith(llmDrafter())));
    const d = await draftById(db.sql, id);
    expect(d!.status).toBe('ready');
    const f = d!.fields as Record<string, { value: unknown; state: string }>;
    expect(f.name).toMatchObject({ value: 'Lumen Notes', state: 'ai' });
    for (const name of ['founded_year', 'city', 'tagline']) expect(f[name]).toMatchObject({ value: null, state: 'not_found' });
    expect(JSON.stringify(d)).not.toContain('Napoleon');
  }, 30_000);
});

test('sweep_drafts ends drafts, comparisons and redrafts left in progress long after their jobs', async () => {
  const stuck = await newDraft(site.url);
  const fresh = await newDraft(site.url);
  await db.sql`update drafts set updated_at = now() - interval '20 minutes' where id = ${stuck}`;
  await db.sql`update drafts set status = 'ready', regenerating = '{name}',
                 comparison = '{"status":"comparing","url":"https://rival.example/","name":null,"points":[]}',
                 updated_at = now() - interval '20 minutes' where id = ${await newDraft(site.url)}`;
  await quickAddJob({ connectionString: db.url }, 'sweep_drafts', {});
  // Only the sweep runs: the fresh draft's crawl job must stay queued.
  await runJobs({ connectionString: db.url, taskList: { sweep_drafts: databaseTasks(db).sweep_drafts }, logger });
  expect(await draftById(db.sql, stuck)).toMatchObject({ status: 'failed', failure_reason: 'timed_out' });
  expect((await draftById(db.sql, fresh))!.status).toBe('crawling');
  const [other] = await db.sql`select regenerating, regenerate_error, comparison from drafts where status = 'ready' and comparison is not null`;
  expect(other.regenerating).toEqual([]);
  expect(other.regenerate_error).toContain('in time');
  expect(other.comparison).toMatchObject({ status: 'failed', failure_reason: 'timed_out' });
});
