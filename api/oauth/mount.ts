import type { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { mountAuthorize } from './authorize.ts';
import { mountConnections } from './connections-page.ts';
import { mountMetadata } from './metadata.ts';
import { mountRegister } from './register.ts';
import { mountRevoke } from './revoke.ts';
import { mountToken } from './token.ts';

/**
 * The OAuth 2.1 authorization server for MCP clients (issue 3 item 3) and the metadata of the two
 * protected resources. Paths: see endpoints.ts. Access tokens are checked by api/auth/principal.ts
 * (a token works only at the resource it was issued for).
 */
export function mountOAuth(app: Elysia, deps: AppDeps) {
  mountMetadata(app, deps);
  mountAuthorize(app, deps);
  mountToken(app, deps);
  mountRegister(app, deps);
  mountRevoke(app, deps);
  mountConnections(app, deps);
}
