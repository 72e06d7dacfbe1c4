import { DomainError } from '../../core/errors/index.ts';
import type { Operation, OperationContext } from '../registry/operation.ts';

/**
 * Credential and scope checks, before the input is read: an unauthenticated caller learns
 * nothing about an operation's inputs (401 before 400), and a refused request costs no parsing.
 */
export function authorize(op: Operation, ctx: OperationContext): void {
  // A credential that was sent but is not valid is refused on every operation, public ones
  // included: a mistyped or revoked key should fail loudly, not read as anonymous.
  if (ctx.credentialRejected) throw new DomainError('invalid_credential', 'The credential is invalid, expired, revoked or issued for another resource.');
  if (op.scope === null) return;
  if (!ctx.principal) throw new DomainError('credential_required', 'This operation needs a credential: send Authorization: Bearer <API key or access token>.');
  if (!ctx.principal.scopes.includes(op.scope)) throw new DomainError('insufficient_scope', `This credential lacks the ${op.scope} scope.`);
}
