import type { Config } from '../../core/config.ts';
import type { SessionUser } from '../../core/auth/sessions.ts';
import { SCOPE_DESCRIPTIONS } from '../../core/auth/scopes.ts';
import { page } from '../site/frame.tsx';
import { csrfField, signInPath, When } from '../site/common.tsx';
import type { AuthorizationRequest } from './authorize-request.ts';
import { OAUTH_PATHS } from './endpoints.ts';
import { formActionSource } from './redirect-uris.ts';
import { resourceLabel } from './resources.ts';

const hostOf = (uri: string | null) => {
  try {
    return uri ? new URL(uri).host : null;
  } catch {
    return null;
  }
};

/**
 * The consent page: who asks (the client's self-declared name, where it comes from), where the
 * answer goes (the redirect URI), what it may do (each scope with its description) and at which
 * resource; then "Allow access" or "Deny". The form carries the original authorization request
 * unchanged, and the POST checks it all again.
 */
export function consentPage(opts: {
  config: Config;
  request: Request;
  siteName: string;
  user: SessionUser;
  auth: AuthorizationRequest;
  query: string;
}): Response {
  const { config, auth } = opts;
  const { client } = auth;
  const csrf = csrfField(config, opts.request);
  const name = client.clientName ?? 'An app without a name';
  const website = hostOf(client.clientUri);
  const origin =
    client.kind === 'metadata_document' ? (
      <>
        Identified by its metadata document at <code>{client.clientId}</code>, published by <strong>{hostOf(client.clientId)}</strong>.
      </>
    ) : (
      <>
        It registered itself with us <When d={client.createdAt} />; its name is its own claim, not checked by us.
      </>
    );
  const authorizePath = `${OAUTH_PATHS.authorize}?${opts.query}`;
  // The answer redirects to the app; browsers check form-action on that redirect too.
  const csp = `default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self' ${formActionSource(auth.redirectUri)}; frame-ancestors 'none'; base-uri 'none'`;
  return page({
    title: `Allow ${name} access?`,
    signedInAs: opts.user.email,
    headers: { ...csrf.headers, 'content-security-policy': csp },
    body: (
      <>
        <h1>
          Allow <span id="client-name">{name}</span> access to your {opts.siteName} account?
        </h1>
        <table>
          <tbody>
            <tr>
              <th>App</th>
              <td>
                {name}
                {website && (
                  <>
                    {' '}
                    (<span id="client-host">{website}</span>)
                  </>
                )}
                <br />
                <small>{origin}</small>
              </td>
            </tr>
            <tr>
              <th>Returns you to</th>
              <td>
                <code id="redirect-uri">{auth.redirectUri}</code>
              </td>
            </tr>
            <tr>
              <th>Access to</th>
              <td>
                {resourceLabel(config, auth.resource)} <code>{auth.resource}</code>
              </td>
            </tr>
            <tr>
              <th>Signed in as</th>
              <td>
                {opts.user.email} (<a href={signInPath(authorizePath)}>use another account</a>)
              </td>
            </tr>
          </tbody>
        </table>
        <h2>It will be able to</h2>
        <ul id="scopes">
          {auth.scopes.map((s) => (
            <li>
              <code>{s}</code>: {SCOPE_DESCRIPTIONS[s]}
            </li>
          ))}
        </ul>
        <p>
          Allow access only if you started this from an app you trust. You can disconnect it any time under <a href={OAUTH_PATHS.connections}>Connected apps</a>
          .
        </p>
        <form method="post" action={OAUTH_PATHS.authorize}>
          {csrf.field}
          <input type="hidden" name="authorization_request" value={opts.query} />
          <button type="submit" name="decision" value="allow">
            Allow access
          </button>
          <button type="submit" name="decision" value="deny">
            Deny
          </button>
        </form>
      </>
    ),
  });
}
