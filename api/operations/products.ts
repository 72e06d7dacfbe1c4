import type { Operation } from '../registry/operation.ts';

export const productsOperations: Operation[] = [];
