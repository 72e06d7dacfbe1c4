// The page a claim-by-email link opens: it shows a "Confirm claim" button, and only the button's
// POST verifies the claim, so mail scanners that open links change nothing. The link is the proof.
import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { csrfToken } from '../auth/csrf.ts';
import { page } from './frame.tsx';
import { readCheckedForm, sitePage } from './common.tsx';
import { claimByLink, confirmClaimLink, type LinkClaim } from '../../core/claims/verify-claim.ts';
import { DISPUTE_MESSAGE_MAX, disputeByLink, recordDispute } from '../../core/claims/disputes.ts';

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
          <p class="notice">The claim of {c.name} is confirmed: the account that started it is now a co-owner and can edit the listing.</p>
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
              Pressing the button makes the account that started this claim a co-owner of {c!.name} on {deps.site.name}, confirmed through {c!.email}: it can
              edit the listing; the current owner keeps it.
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
      const c = await confirmClaimLink(sql, link, { siteName: deps.site.name, siteUrl: deps.config.siteUrl });
      return refusal(c) ?? page({ title: 'Claim not confirmed', status: 409, body: <h1>Claim not confirmed</h1> });
    },
  };
}

const disputeGone = (status: number, title: string, message: string) =>
  page({
    title,
    status,
    body: (
      <>
        <h1>{title}</h1>
        <p>{message}</p>
      </>
    ),
  });

/** The dispute link an affected owner gets: a form to tell the site team an ownership change was wrong. */
export function disputePage(deps: Deps) {
  const { sql, config } = deps;
  return {
    async show(request: Request, link: string): Promise<Response> {
      const d = await disputeByLink(sql, link);
      if (!d) return disputeGone(404, 'Link not valid', 'This dispute link is not valid.');
      if (d.disputed) return disputeGone(200, 'Dispute received', `The site team has your dispute about ${d.listing} and will look into it.`);
      if (d.expired) return disputeGone(410, 'Link expired', 'This dispute link has expired; write to the site team instead.');
      const csrf = csrfToken(config, request);
      const what = d.kind === 'owner_changed' ? 'became the owner of' : 'became a co-owner of';
      return page({
        title: `Dispute the claim of ${d.listing}`,
        headers: csrf.setCookie ? { 'set-cookie': csrf.setCookie } : {},
        body: (
          <>
            <h1>Dispute the claim of {d.listing}</h1>
            <p>
              {d.claimant ?? 'An account'} {what} {d.listing} on {deps.site.name}. If this is wrong, tell the site team why; they will look into it.
            </p>
            <form method="post" action={`/claims/dispute/${encodeURIComponent(link)}`}>
              <input type="hidden" name="csrf" value={csrf.token} />
              <label for="message">What happened</label>
              <textarea id="message" name="message" rows={6} maxLength={DISPUTE_MESSAGE_MAX} style="width:100%" />
              <button type="submit">Send to the site team</button>
            </form>
          </>
        ),
      });
    },
    async send(request: Request, link: string): Promise<Response> {
      const read = await readCheckedForm(config, request);
      if ('response' in read) return read.response;
      const message = (read.form.get('message')?.toString() ?? '').trim();
      if (!(await recordDispute(sql, link, message))) return disputeGone(404, 'Link not valid', 'This dispute link is not valid or has expired.');
      return disputeGone(200, 'Dispute received', 'The site team has your dispute and will look into it.');
    },
  };
}

/**
 * GET and POST /claims/confirm/{link}: opening the mailed link shows a button; only its POST
 * verifies. GET and POST /claims/dispute/{link}: the affected owner's dispute form.
 */
export function claimPagesPlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'site' | 'log' | 'limiter'>) {
  const pages = claimPage(deps);
  const disputes = disputePage(deps);
  return new Elysia({ name: 'site-claims' })
    .get(
      '/claims/dispute/:link',
      sitePage(deps, ({ request, params }) => disputes.show(request, params.link)),
    )
    .post(
      '/claims/dispute/:link',
      sitePage(deps, ({ request, params }) => disputes.send(request, params.link)),
      { parse: 'none' },
    )
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
