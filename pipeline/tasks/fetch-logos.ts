import { fetchListingLogo, logosDue } from '../../core/images/fetch-logo.ts';
import { eachLimited } from '../../core/each-limited.ts';
import { JOBS } from '../../core/jobs/index.ts';
import { defineTask } from './task.ts';
import type { SiteCheckDeps } from './site-check-deps.ts';

/** Logos fetched per run (every 5 minutes): a backlog after an import is worked through over a few runs. */
const PER_RUN = 200;

/** fetch_logos: each listing whose logo_url is new or changed, 4 at a time, through the site-check fetcher (10 s, 2 MB caps). */
export const fetchLogosTask = (deps: SiteCheckDeps) =>
  defineTask(JOBS.fetch_logos, async (_payload, helpers) => {
    const due = await logosDue(deps.sql, PER_RUN);
    const outcomes: Record<string, number> = {};
    await eachLimited(due, 4, async (id) => {
      const o = await fetchListingLogo(deps.sql, deps.fetcher, id);
      outcomes[o] = (outcomes[o] ?? 0) + 1;
    });
    if (due.length) helpers.logger.info(`fetch_logos: ${JSON.stringify(outcomes)}`);
  });
