import { Logger } from 'graphile-worker';
import type { Logger as Pino } from 'pino';

const LEVELS = { error: 'error', warning: 'warn', info: 'info', debug: 'debug' } as const;

/** graphile-worker's logger writing through pino, so the worker's lines are JSON like the edge's (LOG_LEVEL applies). */
export function graphileLogger(log: Pino): Logger {
  return new Logger((scope) => {
    const child = log.child({
      ...(scope.workerId ? { worker: scope.workerId } : {}),
      ...(scope.taskIdentifier ? { task: scope.taskIdentifier } : {}),
      ...(scope.jobId ? { job: scope.jobId } : {}),
      ...(scope.label ? { scope: scope.label } : {}),
    });
    return (level, message, meta) => {
      child[LEVELS[level] ?? 'info'](meta ?? {}, message);
    };
  });
}
