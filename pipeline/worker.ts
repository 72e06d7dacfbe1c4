import pg from 'pg';
import { consoleLogFactory, Logger, run, type Runner, type TaskList } from 'graphile-worker';
import { RECOVERY_EVERY_MS, recoverStaleJobs, recoveryHorizons } from './recovery.ts';
import type { Config } from '../core/config.ts';
import { JOBS, type JobDefinition } from '../core/jobs/index.ts';
import { connect } from '../sql/db.ts';
import { createSafeFetcher, type SafeFetch } from '../core/net/ssrf-fetch.ts';
import { createDrafter } from './drafting/index.ts';
import { ChromiumRenderer } from './crawl/render-page.ts';
import { awardWeeks } from './tasks/award-weeks.ts';
import { refreshViews } from './tasks/refresh-views.ts';
import { crawlDraft } from './tasks/crawl-draft.ts';
import { draftProfile } from './tasks/draft-profile.ts';
import { regenerateDraft } from './tasks/regenerate-draft.ts';
import { crawlCompetitor } from './tasks/crawl-competitor.ts';
import { compareDraft } from './tasks/compare-draft.ts';
import { recrawlListing } from './tasks/recrawl-listing.ts';
import { sweepDrafts } from './tasks/sweep-drafts.ts';
import type { DraftDeps } from './tasks/draft-deps.ts';
import { sendMail, type MailDeps } from './tasks/send-mail.ts';
import { expireRecords } from './tasks/expire-records.ts';
import type { TaskDeps } from './tasks/task.ts';
import { checkBadgeTask } from './tasks/check-badge.ts';
import { goLiveTask } from './tasks/go-live.ts';
import { sweepListingsTask } from './tasks/sweep-listings.ts';
import type { SiteCheckDeps } from './tasks/site-check-deps.ts';
import { notifyFollowersTask } from './tasks/notify-followers.ts';
import { fulfilOrderTask } from './tasks/fulfil-order.ts';
import { expireOrdersTask } from './tasks/expire-orders.ts';
import { refundOrderTask } from './tasks/refund-order.ts';
import { issueOrderDocumentsTask } from './tasks/issue-order-documents.ts';
import { refreshDomainRatingsTask } from './tasks/refresh-domain-ratings.ts';
import { refreshRevenueTask } from './tasks/refresh-revenue.ts';
import { fetchLogosTask } from './tasks/fetch-logos.ts';

/** The crawler's fetcher: SSRF-safe, 10 s and one page's byte cap a request. */
const crawlFetcher = (config: Config) =>
  createSafeFetcher({
    allowLoopback: config.allowLoopbackFetch,
    userAgent: config.crawlerUserAgent,
    timeoutMs: 10_000,
    maxBytes: CRAWL_LIMITS.maxBytesPerPage,
  });

/** Tasks that need nothing but the database. */
export function databaseTasks(deps: TaskDeps): TaskList {
  return {
    [JOBS.refresh_views.name]: refreshViews(deps),
    [JOBS.award_weeks.name]: awardWeeks(deps),
    [JOBS.sweep_drafts.name]: sweepDrafts(deps),
    [JOBS.expire_records.name]: expireRecords(deps),
  };
}

/** The submission pipeline's tasks: crawl, draft, redraft, competitor crawl and comparison, and operators' re-crawls. */
export function draftTasks(deps: DraftDeps): TaskList {
  return {
    [JOBS.crawl_draft.name]: crawlDraft(deps),
    [JOBS.draft_profile.name]: draftProfile(deps),
    [JOBS.regenerate_draft.name]: regenerateDraft(deps),
    [JOBS.crawl_competitor.name]: crawlCompetitor(deps),
    [JOBS.compare_draft.name]: compareDraft(deps),
    [JOBS.recrawl_listing.name]: recrawlListing(deps),
  };
}

/** Every task of the worker, one per job of the catalogue. */
export const allTasks = (deps: DraftDeps & MailDeps): TaskList => ({ ...databaseTasks(deps), ...draftTasks(deps), [JOBS.send_mail.name]: sendMail(deps) });

/**
 * One crontab line for a scheduled job: its attempts and key come from the catalogue, and its
 * payload carries the job's version like every enqueued one (graphile-worker adds `_cron`).
 */
export function cronLine(schedule: string, job: JobDefinition, extra = ''): string {
  const key = job.key?.({});
  const options = [`max=${job.maxAttempts}`, ...(key ? [`jobKey=${key}`, 'jobKeyMode=replace'] : []), ...(extra ? [extra] : [])];
  return `${schedule} ${job.name} ?${options.join('&')} ${JSON.stringify({ v: job.version })}`;
}

/** Crawl caps: about 25 pages, 1 MB a page, 30 s a site (the spec allows a minute for the whole draft). */
export const CRAWL_LIMITS = { maxPages: 25, maxMsTotal: 30_000, maxBytesPerPage: 1_000_000 };

/** Badge and claim checks read one page: 10 s and 2 MB at most, so a slow or huge site ends with a reason. */
export const SITE_CHECK_LIMITS = { timeoutMs: 10_000, maxBytes: 2_000_000 };

/** Jobs run at once per worker process: crawls mostly wait on the network, so more than the CPU count. */
export const WORKER_CONCURRENCY = 16;

export interface WorkerOptions {
  /** Tests pass a fetcher with their own resolver; by default one is made from config. */
  fetcher?: SafeFetch;
  /** The fetcher of badge and claim checks (one homepage or file each); by default one is made from config. */
  siteCheckFetcher?: SafeFetch;
  concurrency?: number;
  /** graphile-worker's logger (tests pass a silent one). */
  logger?: Logger;
  /** How often stale jobs of dead workers are looked for (default RECOVERY_EVERY_MS). */
  recoveryEveryMs?: number;
}

/** The browser for pages that are JavaScript shells, started only when a crawl meets one. */
function rendererFor(config: Config, fetcher: SafeFetch): ChromiumRenderer | undefined {
  if (!config.crawlRenderJs) return undefined;
  return new ChromiumRenderer({ fetcher, userAgent: config.crawlerUserAgent, maxBytes: CRAWL_LIMITS.maxBytesPerPage, executablePath: config.chromiumPath });
}

/** The job runner: tasks plus their schedules. */
export async function startWorker(config: Config, databaseUrl: string, opts: WorkerOptions = {}): Promise<Runner> {
  const concurrency = opts.concurrency ?? WORKER_CONCURRENCY;
  const drafter = createDrafter(config.drafter); // a bad drafter configuration fails here, before anything connects
  const sql = connect(databaseUrl, {
    max: concurrency + 2,
    connectTimeoutMs: config.db.connectTimeoutMs,
    statementTimeoutMs: config.db.workerStatementTimeoutMs,
  });
  const fetcher = opts.fetcher ?? crawlFetcher(config);
  const siteCheck: SiteCheckDeps = {
    sql,
    fetcher:
      opts.siteCheckFetcher ??
      createSafeFetcher({
        allowLoopback: config.allowLoopbackFetch,
        userAgent: config.crawlerUserAgent,
        timeoutMs: SITE_CHECK_LIMITS.timeoutMs,
        maxBytes: SITE_CHECK_LIMITS.maxBytes,
      }),
  };
  const render = rendererFor(config, fetcher);
  const deps: DraftDeps = {
    sql,
    fetcher,
    drafter,
    userAgent: config.crawlerUserAgent,
    crawl: { ...CRAWL_LIMITS, excludeOrigins: [config.siteUrl], render },
    competitorMaxPages: 10,
  };
  const logger = opts.logger ?? new Logger(consoleLogFactory);
  // graphile-worker's own pool, with the time caps its default pool lacks (pg waits forever to
  // connect by default). Errors of idle and checked-out clients are logged, never thrown: the
  // worker outlives a database outage and carries on when the database is back.
  const pgPool = new pg.Pool({
    connectionString: databaseUrl,
    max: concurrency + 2,
    connectionTimeoutMillis: config.db.connectTimeoutMs,
    ...(config.db.workerStatementTimeoutMs ? { statement_timeout: config.db.workerStatementTimeoutMs } : {}),
  });
  let lastPoolError = 0;
  const poolError = (err: Error) => {
    if (Date.now() - lastPoolError < 10_000) return;
    lastPoolError = Date.now();
    logger.error(`PostgreSQL connection error (the worker waits and reconnects): ${err.message}`);
  };
  pgPool.on('error', poolError);
  pgPool.on('connect', (client) => {
    client.on('error', poolError);
  });
  let runner: Runner;
  try {
    runner = await run({
      pgPool,
      concurrency,
      noHandleSignals: true,
      pollInterval: 1000,
      ...(opts.logger ? { logger: opts.logger } : {}),
      taskList: {
        ...allTasks({ ...deps, mail: config.mail }),
        [JOBS.check_badge.name]: checkBadgeTask(siteCheck),
        [JOBS.go_live.name]: goLiveTask(siteCheck),
        [JOBS.sweep_listings.name]: sweepListingsTask(siteCheck),
        [JOBS.notify_followers.name]: notifyFollowersTask({ sql, siteUrl: config.siteUrl }),
        [JOBS.fulfil_order.name]: fulfilOrderTask({ sql }),
        [JOBS.expire_orders.name]: expireOrdersTask({ sql }),
        [JOBS.refund_order.name]: refundOrderTask({ sql, stripe: config.orders.stripe }),
        [JOBS.issue_order_documents.name]: issueOrderDocumentsTask({ sql, siteUrl: config.siteUrl }),
        [JOBS.refresh_domain_ratings.name]: refreshDomainRatingsTask({ sql, config }),
        [JOBS.refresh_revenue.name]: refreshRevenueTask({ sql, config }),
        [JOBS.fetch_logos.name]: fetchLogosTask(siteCheck),
      },
      crontab: [
        cronLine(config.viewRefreshCron, JOBS.refresh_views),
        cronLine('5 0 * * 1', JOBS.award_weeks, 'fill=1w'),
        cronLine('* * * * *', JOBS.sweep_drafts),
        cronLine('*/10 * * * *', JOBS.sweep_listings),
        cronLine('17 * * * *', JOBS.expire_records),
        cronLine('*/5 * * * *', JOBS.expire_orders),
        cronLine('0 4 2 * *', JOBS.refresh_domain_ratings),
        cronLine('0 5 1 * *', JOBS.refresh_revenue),
        cronLine('*/5 * * * *', JOBS.fetch_logos),
      ].join('\n'),
    });
  } catch (error) {
    await sql.end({ timeout: 5 });
    await pgPool.end().catch(() => {});
    throw error;
  }
  // Jobs left locked by a killed worker are retried once past their horizon (see recovery.ts).
  const horizons = recoveryHorizons(config);
  const recover = async () => {
    try {
      const r = await recoverStaleJobs(sql, horizons);
      if (r.unlocked)
        logger.warn(`recovered ${r.unlocked} jobs of stopped workers (${r.workers.join(', ')}); ${r.failedDrafts} drafts failed on their last attempt`);
    } catch (err) {
      logger.warn(`job recovery skipped: ${err instanceof Error ? err.message : String(err)}`); // the database may be down; next round
    }
  };
  void recover();
  const recovery = setInterval(recover, opts.recoveryEveryMs ?? RECOVERY_EVERY_MS);
  const close = async () => {
    clearInterval(recovery);
    await render?.close().catch(() => {});
    await sql.end({ timeout: 5 });
    await pgPool.end().catch(() => {});
  };
  runner.promise.then(close, close);
  return runner;
}

/**
 * A runner of re-crawl jobs only, for `ops recrawl` while it is attached to a batch: it works
 * through the batch at the operator's --concurrency even when no worker is running (a running
 * worker takes jobs too; the per-host queues keep each host to one job at a time either way).
 */
export async function startRecrawlRunner(
  config: Config,
  databaseUrl: string,
  opts: { concurrency: number; fetcher?: SafeFetch; logger?: Logger },
): Promise<Runner> {
  const sql = connect(databaseUrl, { max: opts.concurrency + 2, connectTimeoutMs: config.db.connectTimeoutMs });
  const fetcher = opts.fetcher ?? crawlFetcher(config);
  const render = rendererFor(config, fetcher);
  const deps: DraftDeps = {
    sql,
    fetcher,
    drafter: createDrafter(config.drafter),
    userAgent: config.crawlerUserAgent,
    crawl: { ...CRAWL_LIMITS, excludeOrigins: [config.siteUrl], render },
    competitorMaxPages: 10,
  };
  let runner: Runner;
  try {
    runner = await run({
      connectionString: databaseUrl,
      concurrency: opts.concurrency,
      noHandleSignals: true,
      pollInterval: 500,
      logger: opts.logger ?? new Logger(() => () => {}),
      taskList: { [JOBS.recrawl_listing.name]: recrawlListing(deps) },
    });
  } catch (error) {
    await sql.end({ timeout: 5 });
    throw error;
  }
  const close = async () => {
    await render?.close().catch(() => {});
    await sql.end({ timeout: 5 });
  };
  runner.promise.then(close, close);
  return runner;
}
