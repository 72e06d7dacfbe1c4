import { JOBS } from '../../core/jobs/index.ts';
import { fulfilOrder } from '../../core/orders/fulfil.ts';
import { defineTask, type TaskDeps } from './task.ts';

/** fulfil_order {order_id}: applies every pending line of a paid order, each exactly once (core/orders/fulfil.ts). */
export const fulfilOrderTask = (deps: TaskDeps) =>
  defineTask(JOBS.fulfil_order, async ({ order_id }, helpers) => {
    const { fulfilled } = await fulfilOrder(deps.sql, order_id);
    helpers.logger.info(`fulfil_order ${order_id}: ${fulfilled} lines fulfilled`);
  });
