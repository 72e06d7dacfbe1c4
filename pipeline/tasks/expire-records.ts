import type { Task } from 'graphile-worker';
import type { Sql } from '../../sql/db.ts';
import { deleteExpiredRecords } from '../../sql/queries/expiry.ts';

/** Hourly clean-up of expired idempotency keys, sign-in links, sessions, codes and tokens. */
export const expireRecords = (sql: Sql): Task => async (_payload, helpers) => {
  const deleted = await deleteExpiredRecords(sql);
  helpers.logger.debug(`expired records deleted: ${JSON.stringify(deleted)}`);
};
