import { domainRatingProvider } from '../../core/domain-rating/index.ts';
import { refreshDomainRatings } from '../../core/domain-rating/refresh.ts';
import type { Config } from '../../core/config.ts';
import { JOBS } from '../../core/jobs/index.ts';
import { defineTask, type TaskDeps } from './task.ts';

/** refresh_domain_ratings (monthly): every live listing's domain through the provider; without one configured, ratings come from `ops dr import` only. */
export const refreshDomainRatingsTask = (deps: TaskDeps & { config: Config }) =>
  defineTask(JOBS.refresh_domain_ratings, async (_payload, helpers) => {
    const provider = domainRatingProvider(deps.config);
    if (!provider || !deps.config.domainRating) {
      helpers.logger.info('refresh_domain_ratings: no DR_PROVIDER_KEY; Domain Ratings come from ops dr import only');
      return;
    }
    const r = await refreshDomainRatings(deps.sql, provider, deps.config.domainRating.concurrency);
    helpers.logger.info(`refresh_domain_ratings: ${r.rated} of ${r.domains} domains rated, ${r.failed} failed${r.errors[0] ? ` (${r.errors[0]})` : ''}`);
  });
