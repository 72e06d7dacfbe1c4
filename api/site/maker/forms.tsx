// The plumbing every maker page shares: signed in (else sign-in and back), forms checked (size,
// text, CSRF, origin) and rate limited like the API's writes, operations' errors shown on the page.
import type { AppDeps } from '../../deps.ts';
import type { SessionUser } from '../../../core/auth/sessions.ts';
import { DomainError } from '../../../core/errors/index.ts';
import { csrfToken } from '../../auth/csrf.ts';
import { rateLimitHeaders } from '../../http/rate-limit.ts';
import { messagePage, readCheckedForm, requireUser, sitePage, type SiteRequest } from '../common.tsx';
import { makerPage } from './maker-frame.tsx';

export type MakerDeps = Pick<AppDeps, 'config' | 'sql' | 'site' | 'cache' | 'log' | 'limiter'>;

export interface MakerRequest {
  request: Request;
  params: Record<string, string>;
  user: SessionUser;
  /** The CSRF token for the page's forms; `headers` carries its cookie when new. */
  csrf: string;
  headers: Record<string, string>;
}

const notFound = (deps: MakerDeps, user: SessionUser, path: string) =>
  makerPage({
    config: deps.config,
    siteName: deps.site.name,
    user,
    title: 'Not found',
    path,
    status: 404,
    body: (
      <>
        <h1>Not found</h1>
        <p>There is nothing here, or it is not yours.</p>
      </>
    ),
  });

const withCsrf = (deps: MakerDeps, request: Request) => {
  const { token, setCookie } = csrfToken(deps.config, request);
  return { csrf: token, headers: setCookie ? { 'set-cookie': setCookie } : ({} as Record<string, string>) };
};

/** A maker page (GET): signed-in only; an operation's not_found is the page's 404. */
export function makerGet(deps: MakerDeps, handler: (ctx: MakerRequest) => Promise<Response>) {
  return sitePage(deps, async ({ request, params }: SiteRequest) => {
    const auth = await requireUser(deps, request);
    if ('response' in auth) return auth.response;
    try {
      return await handler({ request, params, user: auth.user, ...withCsrf(deps, request) });
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'not_found') return notFound(deps, auth.user, new URL(request.url).pathname);
      throw err;
    }
  });
}

/**
 * A maker form's POST. `back` is the page to return to after signing in. The handler shows the
 * operation's DomainError on its own page; a not_found one is answered here.
 */
export function makerPost(
  deps: MakerDeps,
  back: (params: Record<string, string>) => string,
  handler: (ctx: MakerRequest & { form: FormData }) => Promise<Response>,
) {
  return sitePage(deps, async ({ request, params }: SiteRequest) => {
    const checked = await readCheckedForm(deps.config, request);
    if ('response' in checked) return checked.response;
    const auth = await requireUser(deps, request, back(params));
    if ('response' in auth) return auth.response;
    const d = await deps.limiter.consume('write', `site:${auth.user.userId}`);
    if (!d.allowed)
      return messagePage({
        status: 429,
        title: 'Too many requests',
        message: `Please wait ${d.resetSeconds} seconds and try again.`,
        headers: rateLimitHeaders(d),
        signedInAs: auth.user.email,
      });
    try {
      return await handler({ request, params, user: auth.user, form: checked.form, ...withCsrf(deps, request) });
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'not_found') return notFound(deps, auth.user, new URL(request.url).pathname);
      throw err;
    }
  });
}

/** Runs `work`; a DomainError comes back as a value for the page to show, anything else is thrown. */
export async function attempt<T>(work: () => Promise<T>): Promise<{ ok: T; err: null } | { ok: null; err: DomainError }> {
  try {
    return { ok: await work(), err: null };
  } catch (err) {
    if (err instanceof DomainError && err.kind !== 'not_found') return { ok: null, err };
    throw err;
  }
}
