// Examples of the account operations: real answers of the demo data (seeds/), shortened to two items a list.
import type { OperationExamples } from '../registry/operation.ts';

export const accountExamples = {
  get_account: {
    output: {
      user: { id: '122', email: 'sofia-rahman@example.com', name: 'Sofia Rahman', created_at: '2026-08-09T15:54:45.239Z', last_sign_in_at: null },
      credential: { kind: 'api_key', name: 'agent', client_id: null, scopes: ['account:read', 'listings:write'], created_at: '2026-11-28T04:57:49.371Z' },
      access: { operations: ['answer_interview', 'get_account'] },
    },
    error: { status: 401, code: 'credential_required', detail: 'This operation needs a credential: send Authorization: Bearer <API key or access token>.' },
  },
} satisfies Record<string, OperationExamples>;
