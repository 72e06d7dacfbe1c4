import type { Operation } from '../registry/operation.ts';

export const badgesOperations: Operation[] = [];
