import { JOBS } from '../../core/jobs/index.ts';
import { expireOrders } from '../../core/orders/refund.ts';
import { defineTask, type TaskDeps } from './task.ts';

/** Every 5 minutes: pending orders past their checkout time become expired. */
export const expireOrdersTask = (deps: TaskDeps) =>
  defineTask(JOBS.expire_orders, async (_payload, helpers) => {
    const n = await expireOrders(deps.sql);
    if (n) helpers.logger.info(`expire_orders: ${n} orders expired`);
  });
