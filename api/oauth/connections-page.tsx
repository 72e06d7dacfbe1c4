import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { listConnections, revokeGrant, type Connection } from '../../core/auth/oauth-grants.ts';
import type { SessionUser } from '../../core/auth/sessions.ts';
import { page } from '../site/frame.tsx';
import { csrfField, readCheckedForm, redirect, requireUser, RevokeForm, sitePage, When, type SiteRequest } from '../site/common.tsx';
import { OAUTH_PATHS } from './endpoints.ts';
import type { AccountSection } from '../site/account.tsx';
import { resourceLabel } from './resources.ts';

const PATH = OAUTH_PATHS.connections;

/** The account page's link to this page (api/app.ts hands it to the site area). */
export const CONNECTIONS_SECTION: AccountSection = { href: PATH, label: 'Connected apps', about: 'AI agents and apps you allowed access to your account' };

const hostOf = (uri: string | null) => {
  try {
    return uri ? new URL(uri).host : null;
  } catch {
    return null;
  }
};

/**
 * GET /account/connections: the apps a person let in through OAuth (live grants), each with its
 * scopes, resource, when it was allowed and last used, and a Revoke button.
 * POST /account/connections/{id}/revoke: revokes the grant and every token issued under it.
 */
export function connectionsPlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'log' | 'limiter'>) {
  const { config, sql } = deps;

  function connectionsPage(request: Request, user: SessionUser, rows: Connection[], notice?: string): Response {
    const csrf = csrfField(config, request);
    return page({
      title: 'Connected apps',
      signedInAs: user.email,
      headers: csrf.headers,
      body: (
        <>
          <h1>Connected apps</h1>
          {notice && (
            <p class="notice" role="status">
              {notice}
            </p>
          )}
          <p>
            AI agents and other apps you allowed into your account through "Allow access". Revoking one signs it out at once; it has to ask you again to get
            back in.
          </p>
          {rows.length ? (
            <table>
              <thead>
                <tr>
                  <th>App</th>
                  <th>Access</th>
                  <th>At</th>
                  <th>Allowed</th>
                  <th>Last used</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {rows.map((c) => {
                  const name = c.clientName ?? 'An app without a name';
                  const host = c.clientKind === 'metadata_document' ? hostOf(c.clientId) : hostOf(c.clientUri);
                  return (
                    <tr data-grant-id={c.grantId}>
                      <td>
                        {name}
                        {host && (
                          <>
                            {' '}
                            <small>({host})</small>
                          </>
                        )}
                      </td>
                      <td>{c.scopes.join(', ')}</td>
                      <td>{resourceLabel(config, c.resource)}</td>
                      <td>
                        <When d={c.createdAt} />
                      </td>
                      <td>
                        <When d={c.lastUsedAt} />
                      </td>
                      <td>
                        <RevokeForm action={`${PATH}/${c.grantId}/revoke`} name={name} csrf={csrf.field} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          ) : (
            <p>No apps are connected to your account.</p>
          )}
        </>
      ),
    });
  }

  return new Elysia({ name: 'oauth-connections' })
    .get(
      PATH,
      sitePage(deps, async ({ request }: SiteRequest) => {
        const auth = await requireUser(deps, request, PATH);
        if ('response' in auth) return auth.response;
        const revoked = new URL(request.url).searchParams.has('revoked');
        return connectionsPage(
          request,
          auth.user,
          await listConnections(sql, auth.user.userId),
          revoked ? 'The app is disconnected: its access no longer works.' : undefined,
        );
      }),
      { parse: 'none' },
    )

    .post(
      `${PATH}/:id/revoke`,
      sitePage(deps, async ({ request, params }: SiteRequest) => {
        const checked = await readCheckedForm(config, request);
        if ('response' in checked) return checked.response;
        const auth = await requireUser(deps, request, PATH);
        if ('response' in auth) return auth.response;
        // Another person's grant, an unknown or an already revoked one: the same answer, so ids reveal nothing.
        await revokeGrant(sql, params.id, auth.user.userId);
        return redirect(config, `${PATH}?revoked=1`);
      }),
      { parse: 'none' },
    );
}
