import type { Operation } from '../registry/operation.ts';

export const blogOperations: Operation[] = [];
