import type { Config } from '../../core/config.ts';
import { bearerChallenge, resourcesOf } from '../auth/challenge.ts';
import { problemOf, problemResponse } from '../http/problem.ts';
import type { ErrorCode } from '../../core/errors/index.ts';
import type { Resolved } from '../auth/principal.ts';
import type { Operation, Principal, Scope } from '../registry/operation.ts';

export interface GateResult {
  principal: Principal | null;
  /** The request calls a tool of a write operation (spends the write budget). */
  write: boolean;
  /** 401/403 to answer instead of running the request. */
  denial: Response | null;
  /** The POST body, parsed once here and handed on to the SDK (undefined when absent or not JSON). */
  body?: unknown;
}

/**
 * The MCP authorization spec wants HTTP-level answers: 401 with WWW-Authenticate naming the
 * protected resource metadata when a tool needs a credential (or the one sent is invalid), 403
 * with error="insufficient_scope" when it lacks the tool's scope. Tool errors inside a 200 would
 * never start a client's OAuth flow, so the JSON-RPC body is peeked at before the SDK runs.
 */
export function mcpAuthGate(ops: Operation[], deps: { resolve: (request: Request) => Promise<Resolved>; config: Config }) {
  const scopeOf = new Map<string, Scope>(ops.flatMap((o): [string, Scope][] => (o.scope ? [[o.name, o.scope]] : [])));
  const writes = new Set(ops.filter((o) => o.method !== 'GET').map((o) => o.name));
  const resource = resourcesOf(deps.config).mcp;
  const deny = (request: Request, code: ErrorCode, challenge: string, detail: string) =>
    problemResponse(request, problemOf(deps.config.siteUrl, code, detail), { 'www-authenticate': challenge });

  // body: the POST body as parsed JSON (undefined when absent or not JSON: the SDK answers that).
  return async (request: Request, body: unknown): Promise<GateResult> => {
    if (request.method !== 'POST') return { principal: null, write: false, denial: null };
    const tools = (Array.isArray(body) ? body : [body])
      .filter((m) => m !== null && typeof m === 'object' && m.method === 'tools/call')
      .map((m) => String(m.params?.name));
    const needed = tools.map((t) => scopeOf.get(t)).filter((s): s is Scope => s !== undefined);
    const write = tools.some((t) => writes.has(t));
    if (!request.headers.get('authorization') && needed.length === 0) return { principal: null, write, denial: null, body };
    // The one resolution of this request's credential: the tool gets it through the SDK's authInfo.
    const ctx = await deps.resolve(request);
    const result = (denial: Response | null): GateResult => ({ principal: ctx.principal, write, denial, body });
    if (ctx.rejected) {
      return result(
        deny(
          request,
          'invalid_credential',
          bearerChallenge(deps.config, resource, { error: 'invalid_token' }),
          'The credential is invalid, expired, revoked or issued for another resource.',
        ),
      );
    }
    const { principal } = ctx;
    if (needed.length && !principal) {
      return result(
        deny(
          request,
          'credential_required',
          bearerChallenge(deps.config, resource),
          'This tool needs a credential: sign in with OAuth or send Authorization: Bearer <API key>.',
        ),
      );
    }
    const missing = principal && needed.find((s) => !principal.scopes.includes(s));
    if (missing) {
      return result(
        deny(
          request,
          'insufficient_scope',
          bearerChallenge(deps.config, resource, { error: 'insufficient_scope', scope: missing }),
          `This credential lacks the ${missing} scope.`,
        ),
      );
    }
    return result(null);
  };
}
