import { Type } from '@sinclair/typebox';
import { DomainError } from '../../core/errors/index.ts';
import { accountOf, credentialOf } from '../../sql/queries/account.ts';
import { Nullable } from '../registry/schemas.ts';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { accountExamples } from './account-examples.ts';

const Scopes = Type.Array(Type.Union([Type.Literal('account:read'), Type.Literal('listings:write'), Type.Literal('orders:write')]));

const Account = Type.Object({
  user: Type.Object({
    id: Type.String({ description: 'Account id.' }),
    email: Type.String({ format: 'email' }),
    name: Nullable(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    last_sign_in_at: Nullable(Type.String({ format: 'date-time', description: 'Last sign-in on the site by e-mail link.' })),
  }),
  credential: Type.Object({
    kind: Type.Union([Type.Literal('api_key'), Type.Literal('oauth')], {
      description: "api_key: a key from the API keys page; oauth: an access token an AI agent obtained with the person's consent.",
    }),
    name: Nullable(Type.String({ description: "The API key's name, or the OAuth client's name." })),
    client_id: Nullable(Type.String({ description: 'The OAuth client, for oauth credentials.' })),
    scopes: Scopes,
    created_at: Nullable(Type.String({ format: 'date-time' })),
  }),
  access: Type.Object({
    operations: Type.Array(Type.String(), { description: 'Authenticated operations this credential may call (public reads are open to everyone).' }),
  }),
});

/** get_account needs the full registry to list allowed operations; it is handed in to avoid an import cycle. */
export function accountOperations(all: () => Operation[]): Operation[] {
  return [
    defineOperation({
      name: 'get_account',
      examples: accountExamples.get_account,
      method: 'GET',
      path: '/me',
      tag: 'Account',
      scope: 'account:read',
      summary: 'Who is signed in and what this credential allows',
      description:
        'Returns the account behind your credential, its scopes and the tools those scopes open. Call it to check which tools you may use before acting.',
      notes:
        "Any valid credential with account:read may call it. Sessions on the site's pages are not API credentials: API calls always use `Authorization: Bearer`.",
      output: Account,
      handler: async (_input, { sql, principal }) => {
        const user = await accountOf(sql, principal.userId);
        if (!user) throw new DomainError('invalid_credential', 'The account behind this credential no longer exists.');
        const cred = await credentialOf(sql, principal.credentialId);
        return {
          user: { ...user, created_at: user.created_at.toISOString(), last_sign_in_at: user.last_sign_in_at?.toISOString() ?? null },
          credential: {
            kind: principal.kind,
            name: cred.name,
            client_id: cred.client_id,
            scopes: principal.scopes,
            created_at: cred.created_at?.toISOString() ?? null,
          },
          access: {
            operations: all()
              .filter((o) => o.scope && principal.scopes.includes(o.scope))
              .map((o) => o.name),
          },
        };
      },
    }),
  ];
}
