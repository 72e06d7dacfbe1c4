// The page a claim-by-email link opens: it shows a "Confirm claim" button, and only the button's
// POST verifies the claim, so mail scanners that open links change nothing. The link is the proof.
import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { csrfToken } from '../auth/csrf.ts';
import { page } from './frame.tsx';
import { readCheckedForm, sitePage } from './common.tsx';
import { claimByLink, confirmClaimLink, type LinkClaim } from '../../core/claims/verify-claim.ts';

type Deps = Pick<AppDeps, 'sql' | 'config' | 'site'>;

const refusal = (c: LinkClaim | null): Response | null => {
  if (!c)
    return page({
      title: 'Link not valid',
      status: 404,
      body: (
        <>
          <h1>Link not valid</h1>
          <p>This claim link is not valid.</p>
        </>
      ),
    });
  if (c.usable === 'expired')
    return page({
      title: 'Claim expired',
      status: 410,
      body: (
        <>
          <h1>Claim expired</h1>
          <p>This claim has expired. Start a new claim of {c.name}.</p>
        </>
      ),
    });
  if (c.usable === 'verified')
    return page({
      title: 'Claim confirmed',
      body: (
        <>
          <h1>Claim confirmed</h1>
          <p class="notice">You are the owner of {c.name}.</p>
        </>
      ),
    });
  return null;
};

export function claimPage(deps: Deps) {
  const { sql, config } = deps;
  return {
    async show(request: Request, link: string): Promise<Response> {
      const c = await claimByLink(sql, link);
      const r = refusal(c);
      if (r) return r;
      const csrf = csrfToken(config, request);
      return page({
        title: `Confirm your claim of ${c!.name}`,
        headers: csrf.setCookie ? { 'set-cookie': csrf.setCookie } : {},
        body: (
          <>
            <h1>Confirm your claim of {c!.name}</h1>
            <p>
              Pressing the button makes the account that started this claim the owner of {c!.name} on {deps.site.name}, confirmed through {c!.email}.
            </p>
            <form method="post" action={`/claims/confirm/${encodeURIComponent(link)}`}>
              <input type="hidden" name="csrf" value={csrf.token} />
              <button type="submit">Confirm claim</button>
            </form>
          </>
        ),
      });
    },
    async confirm(request: Request, link: string): Promise<Response> {
      // Size cap, NUL and invalid Unicode, CSRF: the checks every form of the site passes.
      const read = await readCheckedForm(config, request);
      if ('response' in read) return read.response;
      const c = await confirmClaimLink(sql, link, { siteName: deps.site.name });
      return refusal(c) ?? page({ title: 'Claim not confirmed', status: 409, body: <h1>Claim not confirmed</h1> });
    },
  };
}

/** GET and POST /claims/confirm/{link}: opening the mailed link shows a button; only its POST verifies. */
export function claimPagesPlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'site' | 'log' | 'limiter'>) {
  const pages = claimPage(deps);
  return new Elysia({ name: 'site-claims' })
    .get(
      '/claims/confirm/:link',
      sitePage(deps, ({ request, params }) => pages.show(request, params.link)),
    )
    .post(
      '/claims/confirm/:link',
      sitePage(deps, ({ request, params }) => pages.confirm(request, params.link)),
      { parse: 'none' },
    );
}
