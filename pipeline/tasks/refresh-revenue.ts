import type { Config } from '../../core/config.ts';
import { JOBS } from '../../core/jobs/index.ts';
import { refreshRevenue } from '../../core/revenue/refresh.ts';
import { defineTask, type TaskDeps } from './task.ts';

/** refresh_revenue (monthly, and when a key is connected): verified MRR from each listing's restricted Stripe key. */
export const refreshRevenueTask = (deps: TaskDeps & { config: Config }) =>
  defineTask(JOBS.refresh_revenue, async (_payload, helpers) => {
    const r = await refreshRevenue(deps.sql, deps.config.revenue);
    helpers.logger.info(`refresh_revenue: ${r.recorded} of ${r.checked} Stripe-connected listings recorded, ${r.failed} failed`);
  });
