import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { authorizePlugin } from './authorize.ts';
import { connectionsPlugin } from './connections-page.tsx';
import { metadataPlugin } from './metadata.ts';
import { registerPlugin } from './register.ts';
import { revokePlugin } from './revoke.ts';
import { tokenPlugin } from './token.ts';

/**
 * The OAuth 2.1 authorization server for MCP clients and the metadata of the two
 * protected resources. Paths: see endpoints.ts. Access tokens are checked by api/auth/principal.ts
 * (a token works only at the resource it was issued for).
 */
export function oauthPlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'site' | 'log' | 'limiter'>) {
  return new Elysia({ name: 'oauth' })
    .use(metadataPlugin(deps))
    .use(authorizePlugin(deps))
    .use(tokenPlugin(deps))
    .use(registerPlugin(deps))
    .use(revokePlugin(deps))
    .use(connectionsPlugin(deps));
}
