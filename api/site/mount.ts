import type { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { mountAccount } from './account.ts';
import { mountApiKeys } from './api-keys.ts';
import { mountSignIn } from './sign-in.ts';
import { mountInvitePages } from './invite-page.ts';
import { mountClaimPages } from './claim-page.ts';
import { mountUnsubscribePages } from './unsubscribe-page.ts';

/** Site pages: sign-in by e-mail link, sign-out, account and API keys. */
export function mountSitePages(app: Elysia, deps: AppDeps) {
  mountSignIn(app, deps);
  mountAccount(app, deps);
  mountApiKeys(app, deps);
  mountInvitePages(app, deps);
  mountClaimPages(app, deps);
  mountUnsubscribePages(app, deps);
}
