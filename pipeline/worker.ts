import { run, type Logger, type Runner, type TaskList } from 'graphile-worker';
import type { Config } from '../core/config.ts';
import { connect } from '../sql/db.ts';
import { createSafeFetcher, type SafeFetch } from '../core/net/ssrf-fetch.ts';
import { createDrafter } from './drafting/index.ts';
import { awardWeeks } from './tasks/award-weeks.ts';
import { refreshViews } from './tasks/refresh-views.ts';
import { crawlDraft } from './tasks/crawl-draft.ts';
import { draftProfile } from './tasks/draft-profile.ts';
import { regenerateDraft } from './tasks/regenerate-draft.ts';
import { crawlCompetitor } from './tasks/crawl-competitor.ts';
import { compareDraft } from './tasks/compare-draft.ts';
import { sweepDrafts } from './tasks/sweep-drafts.ts';
import type { DraftDeps } from './tasks/draft-deps.ts';
import { sendMailTask } from './tasks/send-mail.ts';
import { expireRecords } from './tasks/expire-records.ts';
import { fulfilOrderTask } from './tasks/fulfil-order.ts';
import { expireOrdersTask } from './tasks/expire-orders.ts';

/** Tasks that need nothing but the database. */
export const taskList: TaskList = {
  refresh_views: refreshViews,
  award_weeks: awardWeeks,
  sweep_drafts: sweepDrafts,
};

/** The submission pipeline's tasks: crawl, draft, redraft, competitor crawl and comparison. */
export function draftTasks(deps: DraftDeps): TaskList {
  return {
    crawl_draft: crawlDraft(deps),
    draft_profile: draftProfile(deps),
    regenerate_draft: regenerateDraft(deps),
    crawl_competitor: crawlCompetitor(deps),
    compare_draft: compareDraft(deps),
  };
}

/** Crawl caps: about 25 pages, 1 MB a page, 30 s a site (the spec allows a minute for the whole draft). */
export const CRAWL_LIMITS = { maxPages: 25, maxMsTotal: 30_000, maxBytesPerPage: 1_000_000 };

/** Jobs run at once per worker process: crawls mostly wait on the network, so more than the CPU count. */
export const WORKER_CONCURRENCY = 16;

export interface WorkerOptions {
  /** Tests pass a fetcher with their own resolver; by default one is made from config. */
  fetcher?: SafeFetch;
  concurrency?: number;
  /** graphile-worker's logger (tests pass a silent one). */
  logger?: Logger;
}

/** The job runner: tasks plus their schedules. */
export async function startWorker(config: Config, databaseUrl: string, opts: WorkerOptions = {}): Promise<Runner> {
  const concurrency = opts.concurrency ?? WORKER_CONCURRENCY;
  const drafter = createDrafter(config.drafter); // a bad drafter configuration fails here, before anything connects
  const sql = connect(databaseUrl, { max: concurrency + 2 });
  const fetcher = opts.fetcher ?? createSafeFetcher({
    allowLoopback: config.allowLoopbackFetch,
    userAgent: config.crawlerUserAgent,
    timeoutMs: 10_000,
    maxBytes: CRAWL_LIMITS.maxBytesPerPage,
  });
  const deps: DraftDeps = {
    sql, fetcher, drafter, userAgent: config.crawlerUserAgent,
    crawl: CRAWL_LIMITS, competitorMaxPages: 10,
  };
  let runner: Runner;
  try {
    runner = await run({
      connectionString: databaseUrl,
      concurrency,
      maxPoolSize: concurrency + 2,
      noHandleSignals: true,
      pollInterval: 1000,
      ...(opts.logger ? { logger: opts.logger } : {}),
      taskList: { ...taskList, ...draftTasks(deps), send_mail: sendMailTask(config), expire_records: expireRecords(sql),
        fulfil_order: fulfilOrderTask(sql), expire_orders: expireOrdersTask(sql) },
      crontab: [
        `${config.viewRefreshCron} refresh_views ?max=1&jobKey=refresh_views&jobKeyMode=replace`,
        '5 0 * * 1 award_weeks ?max=1&fill=1w&jobKey=award_weeks',
        '* * * * * sweep_drafts ?max=1&jobKey=sweep_drafts&jobKeyMode=replace',
        '17 * * * * expire_records ?max=1&jobKey=expire_records&jobKeyMode=replace',
        '*/5 * * * * expire_orders ?max=1&jobKey=expire_orders&jobKeyMode=replace',
      ].join('\n'),
    });
  } catch (error) {
    await sql.end({ timeout: 5 });
    throw error;
  }
  const close = () => sql.end({ timeout: 5 });
  runner.promise.then(close, close);
  return runner;
}
