import type { Task } from 'graphile-worker';
import type { Sql } from '../../sql/db.ts';
import { JOBS } from '../../core/jobs/catalogue.ts';
import { parsePayload } from '../../core/jobs/define.ts';
import { fulfilOrder } from '../../core/orders/fulfil.ts';

/** fulfil_order {order_id}: applies every pending line of a paid order, each exactly once (core/orders/fulfil.ts). */
export const fulfilOrderTask = (sql: Sql): Task => async (payload, helpers) => {
  const { order_id } = parsePayload(JOBS.fulfil_order, payload);
  const { fulfilled } = await fulfilOrder(sql, order_id);
  helpers.logger.info(`fulfil_order ${order_id}: ${fulfilled} lines fulfilled`);
};
