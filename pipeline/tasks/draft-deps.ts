// What the submission jobs share: a postgres.js pool (the sql/ query modules use it), the
// SSRF-safe fetcher every crawl goes through, the drafter, and the crawl caps.
import type { JobHelpers } from 'graphile-worker';
import type { Sql } from '../../sql/db.ts';
import type { SafeFetch } from '../../core/net/ssrf-fetch.ts';
import type { CategoryText, Drafter } from '../drafting/types.ts';
import type { PageRenderer } from '../crawl/render-page.ts';
import type { TaskDeps } from './task.ts';

export interface DraftDeps extends TaskDeps {
  fetcher: SafeFetch;
  drafter: Drafter;
  userAgent: string;
  /** Crawl caps, and the directory's own origin, which no product crawl enters. */
  crawl: { maxPages: number; maxMsTotal: number; maxBytesPerPage: number; excludeOrigins?: string[]; render?: PageRenderer };
  /** Pages read from a competitor's site (fewer: only its main claims are compared). */
  competitorMaxPages: number;
}

/** graphile-worker counts the running attempt: on the last one a failure must end in a visible state. */
export const lastAttempt = (helpers: JobHelpers) => helpers.job.attempts >= helpers.job.max_attempts;

/**
 * Runs a job's work; when it throws on the last attempt, `onLast` records a failure the owner
 * sees instead (so no draft stays in progress), and the job ends.
 */
export async function orOnLastAttempt(helpers: JobHelpers, work: () => Promise<void>, onLast: (message: string) => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!lastAttempt(helpers)) throw error;
    helpers.logger.error(`${helpers.job.task_identifier} gave up after ${helpers.job.attempts} attempts: ${messageOf(error)}`);
    await onLast(messageOf(error));
  }
}

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 2000);

export async function categoryNames(sql: Sql): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`select name from categories order by position, id`;
  return rows.map((r) => r.name);
}

/** The category tree as the drafters match against it: each category's name, description and
 * keywords (a child's description reads with its parent's name, so "Email" under Marketing says so). */
export async function categoryTree(sql: Sql): Promise<{ names: string[]; categories: CategoryText[] }> {
  const rows = await sql<Required<CategoryText>[]>`
    select c.slug, c.name, concat_ws('. ', p.name, c.description) as description, c.keywords
    from categories c left join categories p on p.id = c.parent_id
    order by c.position, c.id`;
  return {
    names: rows.map((r) => r.name),
    categories: rows.map((r) => ({ slug: r.slug, name: r.name, description: r.description, keywords: r.keywords })),
  };
}
