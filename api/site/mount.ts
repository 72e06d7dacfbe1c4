import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { accountPlugin, type AccountSection } from './account.tsx';
import { apiKeysPlugin } from './api-keys.tsx';
import { signInPlugin } from './sign-in.tsx';
import { invitePagesPlugin } from './invite-page.tsx';
import { claimPagesPlugin } from './claim-page.tsx';
import { unsubscribePagesPlugin } from './unsubscribe-page.tsx';

/**
 * Site pages: sign-in by e-mail link, sign-out, account, API keys, co-founder invites, e-mail
 * claim confirmation and unsubscribing from update mail.
 * `accountSections` links the account page to pages other areas mount.
 */
export function sitePlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'site' | 'log' | 'limiter'>, opts: { accountSections?: readonly AccountSection[] } = {}) {
  return new Elysia({ name: 'site' })
    .use(signInPlugin(deps))
    .use(accountPlugin(deps, opts.accountSections))
    .use(apiKeysPlugin(deps))
    .use(invitePagesPlugin(deps))
    .use(claimPagesPlugin(deps))
    .use(unsubscribePagesPlugin(deps));
}
