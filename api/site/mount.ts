import type { Elysia } from 'elysia';
import type { AppDeps } from '../app.ts';

/** Site pages: sign-in by e-mail link, sign-out, account and API keys. (Being built.) */
export function mountSitePages(_app: Elysia, _deps: AppDeps) {}
