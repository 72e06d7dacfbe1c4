import type { Elysia } from 'elysia';
import type { AppDeps } from '../app.ts';

export function mountBadgeImages(_app: Elysia, _deps: AppDeps) {
  // filled in by the badges work
}
