import type { Operation } from '../registry/operation.ts';

export const leaderboardsOperations: Operation[] = [];
