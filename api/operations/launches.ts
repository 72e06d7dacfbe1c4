import type { Operation } from '../registry/operation.ts';

export const launchesOperations: Operation[] = [];
