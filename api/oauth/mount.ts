import type { Elysia } from 'elysia';
import type { AppDeps } from '../app.ts';

/** OAuth 2.1 authorization server and protected resource metadata. (Being built.) */
export function mountOAuth(_app: Elysia, _deps: AppDeps) {}
