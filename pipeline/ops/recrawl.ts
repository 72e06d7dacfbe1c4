import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import type { Runner } from 'graphile-worker';
import { batchFailures, batchProgress, cancelBatch, createBatch, type BatchProgress, type RecrawlSelector } from '../../core/recrawl/batches.ts';
import { startRecrawlRunner } from '../worker.ts';
import { EXIT, OpsFailure, UsageError, type OpsIo } from './io.ts';
import { thisSite, wholeNumber } from './site-settings.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function csv(raw: string | undefined, flag: string, pattern: RegExp): string[] | undefined {
  if (raw === undefined) return undefined;
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = items.find((i) => !pattern.test(i));
  if (!items.length || bad !== undefined) throw new UsageError(`${flag} takes a comma-separated list${bad ? `, got "${bad}"` : ''}`);
  return items;
}

function crawledBefore(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T00:00:00Z` : raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(d.getTime()))
    throw new UsageError(`--crawled-before must be a date YYYY-MM-DD (or an ISO time), got "${raw}"`);
  return d.toISOString();
}

const minutes = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000));
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
};

/** Done, failed, rate (finished per minute since the batch started) and ETA, in one place. */
export function progressFigures(p: BatchProgress, now = Date.now()) {
  const finished = p.done + p.failed + p.cancelled;
  const elapsed = Math.max(1, (p.last_finished_at ?? new Date(now)).getTime() - p.created_at.getTime());
  const perMinute = p.done + p.failed > 0 ? ((p.done + p.failed) / elapsed) * 60_000 : 0;
  const percent = p.total ? Math.floor((finished / p.total) * 100) : 100;
  const eta = perMinute > 0 ? (p.queued / perMinute) * 60_000 : null;
  return { finished, percent, perMinute, eta };
}

export function plainLine(p: BatchProgress): string {
  const f = progressFigures(p);
  return `batch ${p.id}: ${f.finished}/${p.total} (${f.percent}%) done ${p.done}, failed ${p.failed}${p.cancelled ? `, cancelled ${p.cancelled}` : ''}, ${f.perMinute.toFixed(1)}/min, ETA ${p.queued === 0 ? '0m00s' : f.eta === null ? '-' : minutes(f.eta)}`;
}

export interface AttachOptions {
  /** Run the batch's jobs in this process too (at the batch's concurrency) while attached. */
  work: boolean;
  /** Seconds between plain progress lines (stdout not a terminal). */
  intervalSeconds: number;
}

/**
 * Follows a batch until nothing of it waits: a cli-progress bar on a terminal, otherwise a plain
 * line every interval (and one at the end, 100% when every item finished).
 */
async function attach(id: string, io: OpsIo, opts: AttachOptions): Promise<number> {
  let p = await batchProgress(io.sql, id);
  if (!p) throw new OpsFailure(`no recrawl batch "${id}"`);
  let runner: Runner | null = null;
  if (opts.work && p.queued > 0 && io.config && io.databaseUrl) {
    runner = await startRecrawlRunner(io.config, io.databaseUrl, { concurrency: p.concurrency });
  }
  const tty = io.tty === true;
  const bar = tty
    ? new cliProgress.SingleBar(
        { format: 'recrawl {bar} {percentage}% | {value}/{total} | done {done} failed {failed} | {rate}/min | ETA {eta_text}', hideCursor: true },
        cliProgress.Presets.shades_classic,
      )
    : null;
  const payload = (b: BatchProgress) => {
    const f = progressFigures(b);
    return { done: b.done, failed: b.failed, rate: f.perMinute.toFixed(1), eta_text: b.queued === 0 ? '0m00s' : f.eta === null ? '-' : minutes(f.eta) };
  };
  bar?.start(p.total, progressFigures(p).finished, payload(p));
  try {
    const every = tty ? 250 : opts.intervalSeconds * 1000;
    let last = 0;
    while (p.queued > 0) {
      if (!tty && Date.now() - last >= every) {
        io.out(plainLine(p));
        last = Date.now();
      }
      await new Promise((r) => setTimeout(r, Math.min(every, 250)));
      p = (await batchProgress(io.sql, id))!;
      bar?.update(progressFigures(p).finished, payload(p));
    }
  } finally {
    bar?.stop();
    await runner?.stop();
  }
  io.out(plainLine(p));
  for (const f of await batchFailures(io.sql, id))
    io.out(`  failed: listing ${f.listing_id} (${f.slug}) ${f.url}: ${f.failure_reason}${f.failure_detail ? ` - ${f.failure_detail}` : ''}`);
  return p.failed > 0 ? EXIT.failed : EXIT.ok;
}

function attachOptions(values: { detach?: boolean; interval?: string }): AttachOptions {
  return { work: true, intervalSeconds: values.interval === undefined ? 10 : wholeNumber(values.interval, '--interval', 1, 3600) };
}

/** recrawl [selectors] [--concurrency N] [--detach] [--interval S]: makes a batch and follows it. */
async function start(args: string[], io: OpsIo): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      all: { type: 'boolean' },
      status: { type: 'string' },
      category: { type: 'string' },
      ids: { type: 'string' },
      slugs: { type: 'string' },
      'crawled-before': { type: 'string' },
      concurrency: { type: 'string' },
      detach: { type: 'boolean' },
      interval: { type: 'string' },
    },
  });
  if (values.status !== undefined && !/^[a-z_]{1,40}$/.test(values.status)) throw new UsageError(`--status must be a listing status, got "${values.status}"`);
  if (values.category !== undefined && !/^[a-z0-9][a-z0-9-]{0,219}$/.test(values.category))
    throw new UsageError(`--category must be a category slug, got "${values.category}"`);
  const selector: RecrawlSelector = {
    ...(values.all ? { all: true } : {}),
    ...(values.status ? { status: values.status } : {}),
    ...(values.category ? { category: values.category } : {}),
  };
  const ids = csv(values.ids, '--ids', /^[1-9]\d{0,17}$/);
  if (ids) selector.ids = ids.map(Number);
  const slugs = csv(values.slugs, '--slugs', /^[a-z0-9][a-z0-9-]{0,219}$/);
  if (slugs) selector.slugs = slugs;
  const before = crawledBefore(values['crawled-before']);
  if (before) selector.crawledBefore = before;
  if (Object.keys(selector).length === 0)
    throw new UsageError('say which listings: --all, --status S, --category SLUG, --ids 1,2, --slugs a,b or --crawled-before DATE');
  const concurrency = values.concurrency === undefined ? 4 : wholeNumber(values.concurrency, '--concurrency', 1, 64);
  const opts = attachOptions(values); // checks --interval before anything is written
  const site = await thisSite(io.sql);
  const batch = await createBatch(io.sql, site.id, selector, { concurrency, actor: io.actor ?? 'operator' });
  io.out(`recrawl batch ${batch.id}: ${batch.queued} listings queued (${batch.selected} selected)`);
  if (batch.alreadyQueued.length) {
    const others = [...new Set(batch.alreadyQueued.map((a) => a.batch_id))];
    io.out(`${batch.alreadyQueued.length} already waiting in batch ${others.join(', ')} (not queued again)`);
  }
  if (values.detach) {
    io.out(`follow it with: npm run ops -- recrawl status ${batch.id}`);
    return EXIT.ok;
  }
  if (batch.queued === 0) return EXIT.ok;
  return attach(batch.id, io, opts);
}

/** recrawl status <batch> [--once] [--interval S]: re-attaches (and works) until the batch is through; --once prints one line. */
async function status(args: string[], io: OpsIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { once: { type: 'boolean' }, interval: { type: 'string' } },
  });
  const id = positionals[0];
  if (!id || positionals.length > 1 || !UUID.test(id)) throw new UsageError('recrawl status takes one batch id');
  if (values.once) {
    const p = await batchProgress(io.sql, id);
    if (!p) throw new OpsFailure(`no recrawl batch "${id}"`);
    io.out(`${plainLine(p)}${p.cancelled_at ? ' (cancelled)' : ''}`);
    return EXIT.ok;
  }
  return attach(id, io, attachOptions(values));
}

/** recrawl cancel <batch>: waiting listings are cancelled and their jobs removed. */
async function cancel(args: string[], io: OpsIo): Promise<number> {
  const { positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: {} });
  const id = positionals[0];
  if (!id || positionals.length > 1 || !UUID.test(id)) throw new UsageError('recrawl cancel takes one batch id');
  const n = await cancelBatch(io.sql, id);
  if (n === null) throw new OpsFailure(`no recrawl batch "${id}"`);
  io.out(`recrawl batch ${id} cancelled: ${n} waiting listings will not be re-crawled`);
  return EXIT.ok;
}

export async function recrawlCommand(args: string[], io: OpsIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'status') return status(rest, io);
  if (sub === 'cancel') return cancel(rest, io);
  return start(args, io);
}
