import type { Task } from 'graphile-worker';
import type { Sql } from '../../sql/db.ts';
import { expireOrders } from '../../core/orders/refund.ts';

/** Every 5 minutes: pending orders past their checkout time become expired. */
export const expireOrdersTask = (sql: Sql): Task => async (_payload, helpers) => {
  const n = await expireOrders(sql);
  if (n) helpers.logger.info(`expire_orders: ${n} orders expired`);
};
