import type { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { accountOf } from '../../sql/queries/account.ts';
import { html, page } from './html.ts';
import { csrfField, notFoundPage, requireUser, sitePage, when, type SiteRequest } from './common.ts';

/** Sections of the account page that exist only once another part of the site mounts them. */
const OPTIONAL_SECTIONS = [{ href: '/account/connections', label: 'Connected apps', about: 'AI agents and apps you allowed access to your account' }];

/** GET /account: who is signed in, links to what they can manage, and the sign-out button. */
export function mountAccount(app: Elysia, deps: AppDeps) {
  const { config, sql } = deps;
  const hasPage = (path: string) => app.routes.some((r) => r.method === 'GET' && r.path === path);

  app.get('/account', sitePage(deps, async ({ request }: SiteRequest) => {
    const auth = await requireUser(deps, request, '/account');
    if ('response' in auth) return auth.response;
    const account = await accountOf(sql, auth.user.userId);
    if (!account) return notFoundPage();
    const csrf = csrfField(config, request);
    const sections = [
      { href: '/account/api-keys', label: 'API keys', about: 'Keys for the REST API and the MCP server' },
      ...OPTIONAL_SECTIONS.filter((s) => hasPage(s.href)),
    ];
    return page({
      title: 'Your account', signedInAs: account.email, headers: csrf.headers,
      body: html`<h1>Your account</h1>
<table><tbody>
<tr><th>E-mail</th><td>${account.email}</td></tr>
<tr><th>Account since</th><td>${when(account.created_at)}</td></tr>
<tr><th>Last sign-in</th><td>${when(account.last_sign_in_at)}</td></tr>
</tbody></table>
<ul>${sections.map((s) => html`<li><a href="${s.href}">${s.label}</a>: ${s.about}</li>`)}</ul>
<form method="post" action="/sign-out">${csrf.field}<button type="submit">Sign out</button></form>`,
    });
  }), { parse: 'none' } as never);
}
