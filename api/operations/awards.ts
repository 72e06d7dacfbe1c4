import type { Operation } from '../registry/operation.ts';

export const awardsOperations: Operation[] = [];
