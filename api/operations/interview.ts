import type { Operation } from '../registry/operation.ts';

export const interviewOperations: Operation[] = [];
