import { issueOrderDocuments } from '../../core/documents/issue.ts';
import { JOBS } from '../../core/jobs/index.ts';
import { defineTask, type TaskDeps } from './task.ts';

/** issue_order_documents {order_id}: the invoice of a paid order and the credit note of a refunded one, each once (core/documents/issue.ts). */
export const issueOrderDocumentsTask = (deps: TaskDeps & { siteUrl: string }) =>
  defineTask(JOBS.issue_order_documents, async ({ order_id }, helpers) => {
    const issued = await issueOrderDocuments(deps.sql, order_id, deps.siteUrl);
    if (issued.length) helpers.logger.info(`issue_order_documents ${order_id}: issued ${issued.join(', ')}`);
  });
