import type { Operation } from '../registry/operation.ts';

export const categoriesOperations: Operation[] = [];
