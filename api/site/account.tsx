import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { accountOf } from '../../sql/queries/account.ts';
import { page } from './frame.tsx';
import { csrfField, notFoundPage, requireUser, sitePage, When, type SiteRequest } from './common.tsx';

/** A link on the account page to something a person manages. */
export interface AccountSection {
  href: string;
  label: string;
  about: string;
}

/**
 * GET /account: who is signed in, links to what they can manage, and the sign-out button.
 * `sections` are the links to pages other areas mount (e.g. the OAuth area's connected apps),
 * handed in by whoever composes the two.
 */
export function accountPlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'log' | 'limiter'>, sections: readonly AccountSection[] = []) {
  const { config, sql } = deps;

  return new Elysia({ name: 'site-account' }).get(
    '/account',
    sitePage(deps, async ({ request }: SiteRequest) => {
      const auth = await requireUser(deps, request, '/account');
      if ('response' in auth) return auth.response;
      const account = await accountOf(sql, auth.user.userId);
      if (!account) return notFoundPage();
      const csrf = csrfField(config, request);
      const links = [{ href: '/account/api-keys', label: 'API keys', about: 'Keys for the REST API and the MCP server' }, ...sections];
      return page({
        title: 'Your account',
        signedInAs: account.email,
        headers: csrf.headers,
        body: (
          <>
            <h1>Your account</h1>
            <table>
              <tbody>
                <tr>
                  <th>E-mail</th>
                  <td>{account.email}</td>
                </tr>
                <tr>
                  <th>Account since</th>
                  <td>
                    <When d={account.created_at} />
                  </td>
                </tr>
                <tr>
                  <th>Last sign-in</th>
                  <td>
                    <When d={account.last_sign_in_at} />
                  </td>
                </tr>
              </tbody>
            </table>
            <ul>
              {links.map((s) => (
                <li>
                  <a href={s.href}>{s.label}</a>: {s.about}
                </li>
              ))}
            </ul>
            <form method="post" action="/sign-out">
              {csrf.field}
              <button type="submit">Sign out</button>
            </form>
          </>
        ),
      });
    }),
    { parse: 'none' },
  );
}
