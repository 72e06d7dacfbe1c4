import type { Config } from '../../sql/config.ts';
import { bearerChallenge, resourcesOf } from '../auth/challenge.ts';
import { problem, problemResponse } from '../http/problem.ts';
import type { ContextFactory } from '../http/rest.ts';
import type { Operation, Scope } from '../registry/operation.ts';

/**
 * The MCP authorization spec wants HTTP-level answers: 401 with WWW-Authenticate naming the
 * protected resource metadata when a tool needs a credential (or the one sent is invalid), 403
 * with error="insufficient_scope" when it lacks the tool's scope. Tool errors inside a 200 would
 * never start a client's OAuth flow, so the JSON-RPC body is peeked at before the SDK runs.
 */
export function mcpAuthGate(ops: Operation[], deps: { makeContext: ContextFactory; config: Config }) {
  const scopeOf = new Map<string, Scope>(ops.filter((o) => o.scope).map((o) => [o.name, o.scope as Scope]));
  const resource = resourcesOf(deps.config).mcp;
  const deny = (status: 401 | 403, challenge: string, detail: string) =>
    problemResponse(problem(deps.config.siteUrl, status === 401 ? 'unauthorized' : 'forbidden', detail), { 'www-authenticate': challenge });

  return async (request: Request): Promise<Response | null> => {
    if (request.method !== 'POST') return null;
    let needed: Scope[] = [];
    try {
      const body = await request.clone().json();
      const messages = Array.isArray(body) ? body : [body];
      needed = messages
        .map((m) => (m && m.method === 'tools/call' ? scopeOf.get(String(m.params?.name)) : undefined))
        .filter((s): s is Scope => s !== undefined);
    } catch { /* not JSON: the SDK answers with a parse error */ }
    if (!request.headers.get('authorization') && needed.length === 0) return null;
    const ctx = await deps.makeContext(request, 'mcp');
    if (ctx.credentialRejected) {
      return deny(401, bearerChallenge(deps.config, resource, { error: 'invalid_token' }), 'The credential is invalid, expired, revoked or issued for another resource.');
    }
    if (needed.length && !ctx.principal) {
      return deny(401, bearerChallenge(deps.config, resource), 'This tool needs a credential: sign in with OAuth or send Authorization: Bearer <API key>.');
    }
    const missing = needed.find((s) => !ctx.principal!.scopes.includes(s));
    if (missing) {
      return deny(403, bearerChallenge(deps.config, resource, { error: 'insufficient_scope', scope: missing }), `This credential lacks the ${missing} scope.`);
    }
    return null;
  };
}
